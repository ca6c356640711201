/** Quick search's texts in Japanese (§2 language 'jp'); English is in en.ts. */
import type { SearchTranslation } from './en';

export const jp: SearchTranslation = {
  label: 'デバイスとカメラを検索',
  placeholder: '検索…',
  hint: '2 文字以上',
  none: '「{{text}}」に一致するものはありません。',
  device: 'デバイス',
  camera: 'カメラ',
  ipCamera: 'IP カメラ',
  group: 'グループ',
  searching: '検索中…',
};
