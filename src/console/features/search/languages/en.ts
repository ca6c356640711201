/** Quick search's texts in English (§2 language 'en'), the complete set; §8 keeps the spec's wording. */
export const en = {
  label: 'Search devices and cameras',
  placeholder: 'Search…',
  hint: 'At least 2 characters',
  none: 'Nothing matches “{{text}}”.',
  device: 'Device',
  camera: 'Camera',
  ipCamera: 'IP camera',
  group: 'Group',
  searching: 'Searching…',
};
export type SearchTexts = typeof en;
export type SearchTranslation = { [K in keyof SearchTexts]: string };
