/** The connectivity notice's texts in Japanese (§2 language 'jp'). */
import type { ConnectivityTranslation } from './en';

export const jp: ConnectivityTranslation = {
  offline: 'オフラインです。ネットワークが戻ると、コンソールは自動的に再接続します。',
  reconnecting: 'サーバーとの接続が切れました。再接続しています…',
  unreachable: 'サーバーにまだ接続できません。コンソールは再試行を続けています。',
  retry: '今すぐ再試行',
};
