/**
 * Form pieces of the accounts screens (plain, accessible HTML like the login form): a labelled field with its
 * required mark and error line linked by aria-describedby, and a password input.
 */
import { useId, type ReactNode } from 'react';

/** The ids a field's control needs: its own id and, while invalid, aria-invalid + aria-describedby. */
export interface ControlIds {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: (ids: ControlIds) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ');
  return (
    <div className="ui-field">
      <label className="ui-label" htmlFor={id}>
        {label}
        <span className="ui-required" aria-hidden="true">
          *
        </span>
      </label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      {hint && (
        <p className="ui-dimmed ui-small" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="ui-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A server-side error or notice line (an alert, announced when it appears). */
export function Alert({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="ui-alert" role="alert" data-testid={testId}>
      {children}
    </div>
  );
}
