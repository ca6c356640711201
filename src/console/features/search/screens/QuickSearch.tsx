/**
 * The quick search box in the shell's header (spec §5: from 2 characters, 200 ms after the last key; §8
 * "Connection error. Please try again later."): a combobox whose options are the caller's devices and cameras;
 * choosing one (Enter or click) opens it. Escape clears. Only reads the quickSearch actor's view.
 */
import { Combobox, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import '../i18n';
import { useQuickSearchRef, useQuickSearchView } from '../selectors';

export default function QuickSearch() {
  const { t } = useTranslation();
  const search = useQuickSearchRef();
  const view = useQuickSearchView();
  const navigate = useNavigate();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(value) => {
        const hit = view.hits[Number(value)];
        combobox.closeDropdown();
        search.send({ type: 'quickSearch.clear' });
        if (hit) navigate(hit.link);
      }}
    >
      <Combobox.Target>
        <TextInput
          type="search"
          size="xs"
          className="header-search"
          aria-label={t('search.label')}
          placeholder={t('search.placeholder')}
          title={t('search.hint')}
          value={view.text}
          rightSection={view.busy ? <Loader size={14} aria-label={t('search.searching')} /> : null}
          onChange={(e) => {
            search.send({ type: 'quickSearch.type', text: e.currentTarget.value });
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={(e) => {
            if (e.key === 'Escape') search.send({ type: 'quickSearch.clear' });
          }}
          data-testid="quick-search"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!view.open} data-testid="quick-search-results">
        <Combobox.Options aria-label={t('search.label')}>
          {view.hits.map((hit, i) => (
            <Combobox.Option
              value={String(i)}
              key={`${hit.kind}-${hit.id}`}
              data-testid={`quick-hit-${hit.id}`}
            >
              <Text size="sm">{hit.label}</Text>
              <Text size="xs" c="dimmed">
                {t(`search.${hit.kind}`)}
                {hit.detail ? ` · ${hit.detail}` : ''}
              </Text>
            </Combobox.Option>
          ))}
          {view.empty && <Combobox.Empty>{t('search.none', { text: view.text.trim() })}</Combobox.Empty>}
          {view.error && (
            <Combobox.Empty>
              <Text size="sm" c="red.8" role="alert">
                {view.error}
              </Text>
            </Combobox.Empty>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
