/**
 * The top of every use-case screen (issue 11): which use case of this kind is shown (kept in the URL as
 * ?use_case=, so a reload or a shared link shows the same one), New (the start form) and Stop (confirmed:
 * the use case and its records are deleted; the device stops at its next sync). Test ids: uc-select,
 * uc-new, uc-stop, uc-confirm-stop, uc-list-error.
 */
import { Alert, Button, Group, Modal, NativeSelect, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { AnyActorRef } from 'xstate';
import type { UseCase, UseCaseKind } from '../../../../protocol/analytics';
import { useUseCasesRef, useUseCasesView, type UseCasesView } from '../selectors';

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
