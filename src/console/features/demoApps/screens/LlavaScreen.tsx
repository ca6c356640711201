/**
 * §2 /llava: a chat about what a camera sees (issue 14; §5 "Chat demo ignores empty messages": the machine
 * ignores them). The answer streams in token by token. Test ids: llava-input, llava-send, llava-message.
 */
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DemoAppRef } from '../../../../../machines/demoApps/demoApps.machine';
import '../i18n';
import '../demoApps.css';
import { useDemoApp, useDemoAppView } from '../selectors';
import { LiveVideo, SourcePicker } from './parts';

const NO_SHAPES = { boxes: [], lines: [] };

export default function LlavaScreen() {
  const ref = useDemoApp('llava');
  return ref ? <Llava actor={ref} /> : null;
}

function Llava({ actor }: { actor: DemoAppRef }) {
  const { t } = useTranslation();
  const view = useDemoAppView(actor);
  const [text, setText] = useState('');
  const { messages, partial } = view.ctx;
  return (
    <Stack className="demo-page" data-testid="demo-llava">
      <Title order={1}>{t('demoApps.llava.title')}</Title>
      <Text>{t('demoApps.llava.intro')}</Text>
      <SourcePicker view={view} actor={actor} />
      {view.phase === 'ready' && <LiveVideo view={view} shapes={NO_SHAPES} />}
      <section aria-label={t('demoApps.llava.history')} className="demo-chat" aria-live="polite">
        {messages.length === 0 && !partial && <Text c="dimmed">{t('demoApps.llava.empty')}</Text>}
        {messages.map((m, i) => (
          <div
            key={i}
            className={`demo-msg demo-msg-${m.role}`}
            data-testid="llava-message"
            data-role={m.role}
          >
            <strong>{t(m.role === 'user' ? 'demoApps.llava.you' : 'demoApps.llava.assistant')}: </strong>
            {m.content}
          </div>
        ))}
        {view.work === 'answering' && (
          <div className="demo-msg demo-msg-assistant" data-testid="llava-partial">
            <strong>{t('demoApps.llava.assistant')}: </strong>
            {partial || t('demoApps.llava.thinking')}
          </div>
        )}
      </section>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'chat.send', text });
          if (text.trim()) setText('');
        }}
      >
        <Group align="flex-end">
          <TextInput
            label={t('demoApps.llava.message')}
            placeholder={t('demoApps.llava.placeholder')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            data-testid="llava-input"
          />
          <Button
            type="submit"
            disabled={view.phase !== 'ready' || view.work === 'answering'}
            data-testid="llava-send"
          >
            {t('demoApps.llava.send')}
          </Button>
          <Button variant="default" onClick={() => actor.send({ type: 'chat.clear' })}>
            {t('demoApps.llava.clear')}
          </Button>
        </Group>
      </form>
      {view.error && view.phase === 'ready' && <Text c="red">{view.error}</Text>}
    </Stack>
  );
}
