import type { InputHTMLAttributes } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  /** The field's name, as the validation and the server's `errors` key it. */
  name: string;
  label: string;
  hint?: string;
  error?: string;
}

/** A labelled input whose hint and error are read with it (aria-describedby). */
export function TextField({ name, label, hint, error, ...input }: TextFieldProps) {
  const id = `field-${name.replace(/\W/g, '-')}`;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
    </div>
  );
}

/** Moves focus to the first field of `form` named in `errors` (focus the first error). */
export function focusFirstError(form: HTMLFormElement | null, errors: Record<string, string>) {
  if (!form) return;
  const names = new Set(Object.keys(errors));
  for (const element of Array.from(form.elements)) {
    const name = element.getAttribute('name');
    if (name && names.has(name) && element instanceof HTMLElement) {
      element.focus();
      return;
    }
  }
}
