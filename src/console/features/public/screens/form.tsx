/**
 * Plain, accessible form pieces of the public and billing screens (they render signed out too, where the
 * auth-free layout ships no Mantine): a labelled field with its required or optional mark and its error line,
 * linked by aria-describedby.
 */
import { useId, type ReactNode } from 'react';

/** What a field's control receives: its id and, while invalid, aria-invalid + aria-describedby. */
export interface ControlIds {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export function Field({
  label,
  error,
  hint,
  required = false,
  optionalText,
  children,
}: {
  label: string;
  error?: string | null;
  hint?: string;
  required?: boolean;
  /** Shown after the label of a field that is not required (e.g. "(optional)"). */
  optionalText?: string;
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
        {required ? (
          <span className="ui-required" aria-hidden="true">
            *
          </span>
        ) : (
          optionalText && <span className="ui-dimmed"> {optionalText}</span>
        )}
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
