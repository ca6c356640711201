/**
 * A button that copies a text to the clipboard (the tag list's pull command, the download page's install
 * command): named by `label` for screen readers, keyboard operable (a native button), and it says "Copied"
 * or the failure in a polite live region beside it.
 */
import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function CopyButton({
  text,
  label,
  testId,
  children,
}: {
  text: string;
  /** Accessible name (what is copied). */
  label: string;
  testId?: string;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <>
      <Button size="xs" variant="light" aria-label={label} data-testid={testId} onClick={() => void copy()}>
        {children ?? '⧉'}
      </Button>
      <Text size="xs" component="span" aria-live="polite" c={copied === false ? 'red.8' : undefined}>
        {copied === null ? '' : copied ? t('repositories.copied') : t('repositories.copyFailed')}
      </Text>
    </>
  );
}
