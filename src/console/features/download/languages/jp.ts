/** The download feature's texts (jp). */
import type { DownloadTranslation } from './en';

export const jp: DownloadTranslation = {
  title: 'ダウンロード',
  intro:
    'x86 コンピューターまたは NVIDIA Jetson にデバイスクライアントをインストールして、このコンソールに接続します。',
  loading: '読み込み中…',
  failed: 'ダウンロードページを読み込めませんでした: {{error}}',
  retry: '再試行',
  release: 'デバイスクライアント',
  version: 'バージョン {{version}}',
  size: 'サイズ',
  sha256: 'SHA-256',
  published: '{{date}} に公開',
  noRelease:
    'このサーバーではクライアントのリリースがまだ公開されていません。管理者が公開します（ソフトウェア）。',
  requirements: 'デバイスに必要なもの',
  x86: 'x86 コンピューター',
  jetson: 'NVIDIA Jetson',
  reqNode: 'Node.js {{version}} 以降と npm',
  reqTools: 'curl、tar、sha256sum（インストーラー用）',
  reqFfmpeg: 'ffmpeg（カメラ: USB/V4L2、RTSP、ファイル）',
  reqDocker: 'Docker（コンテナーと推論エンジン）',
  reqGpu: 'GPU を使う場合は NVIDIA ドライバーと NVIDIA Container Toolkit（任意）',
  reqJetpack: 'JetPack 5 または 6（L4T）と、その Docker および NVIDIA ランタイム',
  reqJtop: '詳細な Jetson メトリクス用の jtop（jetson-stats）（任意）',
  addDevice: 'デバイスを追加',
  addIntro:
    'デバイスに名前を付けてください。コンソールがトークン付きでデバイスを作成し、デバイスで実行するコマンドを表示します。',
  deviceName: 'デバイス名',
  kind: 'デバイスの種類',
  nameRequired: 'デバイス名を入力してください。',
  create: 'デバイスとコマンドを作成',
  createFailed: 'デバイスを作成できませんでした: {{error}}',
  created: 'デバイス {{name}} を作成しました',
  tokenOnce:
    'このコマンドにはデバイスのトークンが含まれます。表示は一度だけです。今すぐコピーしてください。トークンの有効期間は 60 日です。',
  curlTitle: '1 行インストール（インストールスクリプトを実行）',
  curlHelp:
    'デバイスで実行します。要件を確認し、クライアントをダウンロードし、SHA-256 を検証して起動します。',
  npmTitle: 'コンソールのリポジトリのチェックアウトから',
  npmHelp: 'デバイス上のリポジトリで npm install の後に実行します。',
  copyCurl: 'インストールコマンドをコピー',
  copyNpm: 'npm コマンドをコピー',
  another: '別のデバイスを追加',
  openDevices: 'デバイスへ',
  generated: '生成しました！',
};
