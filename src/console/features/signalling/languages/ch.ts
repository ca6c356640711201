/** The connectivity notice's texts in Chinese (§2 language 'ch'). */
import type { ConnectivityTranslation } from './en';

export const ch: ConnectivityTranslation = {
  offline: '您已离线。网络恢复后，控制台会自动重新连接。',
  reconnecting: '与服务器的连接已断开。正在重新连接…',
  unreachable: '服务器仍无法访问。控制台会继续尝试。',
  retry: '立即重试',
};
