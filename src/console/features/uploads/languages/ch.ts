/** The uploads feature's texts (ch). */
import type { UploadsTranslation } from './en';

export const ch: UploadsTranslation = {
  button: '上传（{{count}}）',
  buttonLabel: '查看上传进度：{{count}} 个进行中',
  dialogTitle: '上传进度',
  running: '进行中的上传',
  none: '没有正在进行的上传。',
  preparing: '正在校验 {{name}}',
  percent: '{{percent}} %',
  progressLabel: '{{name}} 的上传',
  cancel: '取消上传 {{name}}',
  results: '已结束的上传',
  succeeded: '成功',
  failedLine: '失败',
  close: '关闭',
  toast: {
    uploadedTitle: '已上传',
    uploaded: '{{file}} 上传成功',
    failedTitle: '上传失败',
    failed: '{{file}} 上传失败',
  },
};
