/** The remote desktop feature's texts in Japanese (§2 language 'jp'); English is in en.ts. */
import type { RemoteDesktopTranslation } from './en';

export const jp: RemoteDesktopTranslation = {
  tab: 'リモートデスクトップ',
  title: 'リモートデスクトップ',
  intro: '{{device}} の画面を表示し、マウスとキーボードで操作します。',
  open: 'リモートデスクトップを開く',
  notConnected: '先にデバイスを接続してください。リモートデスクトップはその接続上で動作します。',
  dialogTitle: 'リモートデスクトップ: {{device}}',
  screenLabel:
    '{{device}} のリモート画面。クリックして操作します。フォーカスがある間、キー入力はデバイスに送られます。Esc でキーボードを解放します。',
  connecting: 'デスクトップに接続しています…',
  failed: 'リモートデスクトップが停止しました: {{error}}',
  retry: '再試行',
  close: '閉じる',
  fullScreen: '全画面表示',
  exitFullScreen: '全画面表示を終了',
  keyboardCaptured: 'キーボードはデバイスを操作中です。Esc で解放します。',
  keyboardReleased: '画面をクリックすると操作できます。',
  windows: '開いているウィンドウ',
  noWindows: '開いているウィンドウはありません。',
  closeWindow: 'ウィンドウ {{title}} を閉じる',
  focused: 'アクティブ',
  untitled: '(無題)',
  stats: 'フレームレート {{fps}} fps · 解像度 {{resolution}} · 往復 {{rtt}} ms',
  backend: { x11: 'デバイスのディスプレイ (X11)', sim: 'シミュレートされたデスクトップ' },
  inputFailed: '入力を送信できませんでした: {{error}}',
  windowsFailed: 'ウィンドウ一覧: {{error}}',
};
