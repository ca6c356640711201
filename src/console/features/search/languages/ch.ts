/** Quick search's texts in Chinese (§2 language 'ch'); English is in en.ts. */
import type { SearchTranslation } from './en';

export const ch: SearchTranslation = {
  label: '搜索设备和摄像头',
  placeholder: '搜索…',
  hint: '至少 2 个字符',
  none: '没有与“{{text}}”匹配的结果。',
  device: '设备',
  camera: '摄像头',
  ipCamera: 'IP 摄像头',
  group: '分组',
  searching: '正在搜索…',
};
