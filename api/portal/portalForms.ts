import type { z } from 'zod';
import { html, type SafeHtml } from './portalHtml.ts';

/** A form's field errors, by field name, as the page shows them beside their fields. */
export type FieldErrors = Record<string, string>;

/** The errors of a zod parse by the first segment of each issue's path (the form field), the first issue of each. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The hidden field every form of a session carries (a synchronizer token, checked on every POST). */
export const csrfField = (token: string): SafeHtml => html`<input type="hidden" name="_csrf" value="${token}">`;

/**
 * A labelled text input with its error beside it: the error is the field's description (aria-describedby) and the
 * field is marked invalid, so a screen reader reads both.
 */
export function textField(options: { name: string; label: string; value?: string; type?: string; required?: boolean; hint?: string; errors?: FieldErrors; autocomplete?: string }): SafeHtml {
  const { name, label, errors = {} } = options;
  const error = errors[name];
  const described = [options.hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
  <label for="${name}">${label}</label>
  ${options.hint ? html`<p class="hint" id="${name}-hint">${options.hint}</p>` : ''}
  <input id="${name}" name="${name}" type="${options.type ?? 'text'}" value="${options.value ?? ''}"${options.required ? html` required` : ''}${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}>
  ${error ? html`<p class="error" id="${name}-error">${error}</p>` : ''}
</div>`;
}

/** A labelled multi-line text field (pasted metadata) with its hint and error, described as textField's are. */
export function textArea(options: { name: string; label: string; value?: string; hint?: string; rows?: number; errors?: FieldErrors }): SafeHtml {
  const { name, label, errors = {} } = options;
  const error = errors[name];
  const described = [options.hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
  <label for="${name}">${label}</label>
  ${options.hint ? html`<p class="hint" id="${name}-hint">${options.hint}</p>` : ''}
  <textarea id="${name}" name="${name}" rows="${String(options.rows ?? 6)}" spellcheck="false"${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}>${options.value ?? ''}</textarea>
  ${error ? html`<p class="error" id="${name}-error">${error}</p>` : ''}
</div>`;
}

/** A labelled file input (an uploaded metadata file), its hint and error described as textField's are. */
export function fileField(options: { name: string; label: string; accept: string; hint?: string; errors?: FieldErrors }): SafeHtml {
  const { name, label, errors = {} } = options;
  const error = errors[name];
  const described = [options.hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
  <label for="${name}">${label}</label>
  ${options.hint ? html`<p class="hint" id="${name}-hint">${options.hint}</p>` : ''}
  <input id="${name}" name="${name}" type="file" accept="${options.accept}"${described ? html` aria-describedby="${described}"` : ''}${error ? html` aria-invalid="true"` : ''}>
  ${error ? html`<p class="error" id="${name}-error">${error}</p>` : ''}
</div>`;
}

/** A group of checkboxes (roles, domains) in a fieldset whose legend names it, with its error beside it. */
export function checkboxes(options: { name: string; legend: string; choices: { value: string; label: string }[]; checked: readonly string[]; errors?: FieldErrors; idPrefix?: string }): SafeHtml {
  const { name, errors = {} } = options;
  const prefix = options.idPrefix ?? name;
  const error = errors[name];
  return html`<fieldset class="choices"${error ? html` aria-describedby="${prefix}-error"` : ''}>
  <legend>${options.legend}</legend>
  ${options.choices.map((choice, i) => html`<div class="choice"><input type="checkbox" id="${prefix}-${i}" name="${name}" value="${choice.value}"${options.checked.includes(choice.value) ? html` checked` : ''}><label for="${prefix}-${i}">${choice.label}</label></div>`)}
  ${error ? html`<p class="error" id="${prefix}-error">${error}</p>` : ''}
</fieldset>`;
}

/** A one-button form posting `fields` to `action` (resend, revoke, verify, remove): the button says what it does. */
export function actionButton(options: { action: string; csrf: string; fields: Record<string, string>; label: string; describedBy?: string; danger?: boolean }): SafeHtml {
  return html`<form method="post" action="${options.action}" class="inline">
  ${csrfField(options.csrf)}
  ${Object.entries(options.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
  <button type="submit"${options.danger ? html` class="danger"` : ''}${options.describedBy ? html` aria-describedby="${options.describedBy}"` : ''}>${options.label}</button>
</form>`;
}
