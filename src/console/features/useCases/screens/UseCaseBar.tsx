/**
 * The top of every use-case screen (issue 11): which use case of this kind is shown (kept in the URL as
 * ?use_case=, so a reload or a shared link shows the same one), New (the start form) and Stop (confirmed:
 * the use case and its records are deleted; the device stops at its next sync). UseCaseTop adds the title,
 * the intro and the start form (open on New, or when there is none yet). Test ids: uc-select, uc-new, uc-stop,
 * uc-confirm-stop, uc-list-error.
 */
import { Alert, Button, Card, Group, Modal, NativeSelect, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { AnyActorRef } from 'xstate';
import type { UseCase, UseCaseKind } from '../../../../protocol/analytics';
import { useUseCasesRef, useUseCasesView, type UseCasesView } from '../selectors';
import { StartForm } from './StartForm';

/** The screen's use cases and the one shown (?use_case=, else the first). */
export function useShownUseCase(kind: UseCaseKind) {
  const ref = useUseCasesRef();
  const view = useUseCasesView(kind);
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    ref.send({ type: 'useCases.load' });
  }, [ref]);
  const asked = params.get('use_case');
  const shown: UseCase | null =
    view.list.find((u) => u.id === asked) ?? (asked ? null : (view.list[0] ?? null));
  const show = (id: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id) next.set('use_case', id);
        else next.delete('use_case');
        return next;
      },
      { replace: true },
    );
  // a started one is shown at once
  useEffect(() => {
    if (view.created && view.list.some((u) => u.id === view.created) && asked !== view.created)
      show(view.created);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.created, view.list]);
  return { ref, view, shown, show };
}

export function UseCaseBar(props: {
  ref_: AnyActorRef;
  view: UseCasesView;
  shown: UseCase | null;
  show: (id: string | null) => void;
  formOpen: boolean;
  onNew: () => void;
}) {
  const { t } = useTranslation();
  const { ref_, view, shown, show, formOpen, onNew } = props;
  return (
    <>
      <Group align="flex-end">
        <NativeSelect
          label={t('useCases.shown')}
          value={shown?.id ?? ''}
          onChange={(e) => show(e.currentTarget.value || null)}
          data={[
            ...(shown ? [] : [{ value: '', label: t('useCases.none') }]),
            ...view.list.map((u) => ({ value: u.id, label: `${u.name} (${u.job_name})` })),
          ]}
          data-testid="uc-select"
          style={{ minWidth: 280 }}
        />
        {!formOpen && (
          <Button variant="light" onClick={onNew} data-testid="uc-new">
            {t('useCases.new')}
          </Button>
        )}
        {shown && (
          <Button
            color="red"
            variant="light"
            onClick={() => ref_.send({ type: 'useCase.stop', id: shown.id })}
            disabled={view.busy}
            data-testid="uc-stop"
          >
            {t('useCases.stop')}
          </Button>
        )}
      </Group>
      {view.error && (
        <Alert color="red" data-testid="uc-list-error">
          {view.error}
        </Alert>
      )}
      <Modal
        opened={view.state === 'confirming' || view.state === 'stopping'}
        onClose={() => ref_.send({ type: 'stop.cancel' })}
        title={t('useCases.stopTitle')}
      >
        <Text>{t('useCases.stopText', { name: view.stopping?.name ?? '' })}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => ref_.send({ type: 'stop.cancel' })}>
            {t('useCases.cancel')}
          </Button>
          <Button
            color="red"
            loading={view.state === 'stopping'}
            onClick={() => ref_.send({ type: 'stop.confirm' })}
            data-testid="uc-confirm-stop"
          >
            {t('useCases.stop')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** A use-case page: the shown use case, and whether the start form is open (New, or none yet). */
export function useUseCasePage(kind: UseCaseKind) {
  const page = useShownUseCase(kind);
  const [formOpen, setFormOpen] = useState(false);
  useEffect(() => {
    if (page.view.created) setFormOpen(false);
  }, [page.view.created]);
  const showForm = formOpen || (page.view.state === 'ready' && page.view.list.length === 0);
  return { ...page, kind, showForm, openForm: () => setFormOpen(true) };
}

/** Title, intro, the bar and (withForm) the start form of a use-case page. */
export function UseCaseTop(props: {
  page: ReturnType<typeof useUseCasePage>;
  title: string;
  intro: string;
  withForm?: boolean;
}) {
  const { page, title, intro } = props;
  const withForm = props.withForm !== false;
  return (
    <>
      <Title order={2}>{title}</Title>
      <Text size="sm">{intro}</Text>
      <UseCaseBar
        ref_={page.ref}
        view={page.view}
        shown={page.shown}
        show={page.show}
        formOpen={!withForm || page.showForm}
        onNew={page.openForm}
      />
      {withForm && page.showForm && (
        <Card withBorder>
          <StartForm
            kind={page.kind}
            ref_={page.ref}
            busy={page.view.state === 'starting'}
            error={page.view.formError}
          />
        </Card>
      )}
    </>
  );
}
