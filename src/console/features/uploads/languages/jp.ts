/** The uploads feature's texts (jp). */
import type { UploadsTranslation } from './en';

export const jp: UploadsTranslation = {
  button: 'アップロード（{{count}}）',
  buttonLabel: 'アップロードの進捗を表示：{{count}} 件実行中',
  dialogTitle: 'アップロードの進捗',
  running: '実行中のアップロード',
  none: '実行中のアップロードはありません。',
  preparing: '{{name}} を確認中',
  percent: '{{percent}} %',
  progressLabel: '{{name}} のアップロード',
  cancel: '{{name}} のアップロードをキャンセル',
  results: '終了したアップロード',
  succeeded: '成功',
  failedLine: '失敗',
  close: '閉じる',
  toast: {
    uploadedTitle: 'アップロード完了',
    uploaded: '{{file}} のアップロードに成功しました',
    failedTitle: 'アップロード失敗',
    failed: '{{file}} のアップロードに失敗しました',
  },
};
