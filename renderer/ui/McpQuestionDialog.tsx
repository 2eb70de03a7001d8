// A question from an MCP server (architecture §6): an elicitation form, a URL it wants opened (only
// with the person's yes), or a VS Code `${input:id}` value for a server's config. One at a
// time, named after the server. A config value is asked in a card that does not block the chat
// (turns go on without that server's tools until it is answered); the others are modal, and
// Escape cancels them.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { McpAnswer, McpQuestion, McpQuestionField } from '../../common/ipc.ts';
import { useApp } from '../state/store.ts';

type Value = string | number | boolean | string[];

export function McpQuestionDialog() {
  const question = useApp((s) => s.mcpQuestions[0]);
  const answer = useApp((s) => s.answerMcpQuestion);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const modal = question !== undefined && question.kind !== 'input';
    if (el.open && (!question || el.matches(':modal') !== modal)) el.close();
    if (question && !el.open) {
      if (modal) el.showModal();
      else el.show();
    }
  }, [question]);

  const send = (a: Omit<McpAnswer, 'id'>) => question && void answer({ id: question.id, ...a });
  return (
    <dialog
      ref={dialog}
      className="mcp-question"
      aria-label={question ? `MCP server ${question.server} asks` : 'MCP question'}
      onCancel={(e) => {
        e.preventDefault();
        send({ action: 'cancel' });
      }}
    >
      {question && <QuestionBody key={question.id} question={question} send={send} />}
    </dialog>
  );
}

function QuestionBody({ question, send }: { question: McpQuestion; send: (a: Omit<McpAnswer, 'id'>) => void }) {
  const [values, setValues] = useState<Record<string, Value>>(() => initialValues(question.fields));
  const [problem, setProblem] = useState<string | null>(null);
  const heading = question.kind === 'input' ? `"${question.server}" needs a value` : `"${question.server}" asks`;

  if (question.kind === 'url') {
    return (
      <div className="mcp-question-body">
        <h2>{heading}</h2>
        <p>{question.message}</p>
        <p className="url-host">
          It wants to open a page on <strong>{question.host ?? 'an unknown host'}</strong>
        </p>
        <p>
          <code className="url">{question.url}</code>
        </p>
        <div className="actions">
          <button type="button" onClick={() => send({ action: 'decline' })}>
            Decline
          </button>
          <button type="button" className="primary" autoFocus onClick={() => send({ action: 'accept' })}>
            Open {question.host ?? 'page'} in browser
          </button>
        </div>
      </div>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = question.required.filter((name) => values[name] === undefined || values[name] === '');
    if (missing.length) {
      setProblem(`Please fill in ${missing.map((m) => question.fields[m]?.title ?? m).join(', ')}.`);
      return;
    }
    send({ action: 'accept', content: values });
  };
  return (
    <form className="mcp-question-body" onSubmit={submit}>
      <h2>{heading}</h2>
      <p>{question.message}</p>
      {Object.entries(question.fields).map(([name, field], i) => (
        <Field
          key={name}
          name={name}
          field={field}
          required={question.required.includes(name)}
          password={question.password === true || question.secret?.includes(name) === true}
          autoFocus={i === 0}
          value={values[name]}
          onChange={(v) => setValues((old) => withValue(old, name, v))}
        />
      ))}
      {problem && <p role="alert">{problem}</p>}
      <div className="actions">
        <button type="button" onClick={() => send({ action: 'decline' })}>
          Decline
        </button>
        <button type="submit" className="primary">
          Submit
        </button>
      </div>
    </form>
  );
}

function Field(props: { name: string; field: McpQuestionField; required: boolean; password: boolean; autoFocus: boolean; value: Value | undefined; onChange: (v: Value | undefined) => void }) {
  const { name, field, value, onChange } = props;
  const label = `${field.title ?? name}${props.required ? ' (required)' : ''}`;
  const choices = field.oneOf?.map((o) => ({ value: o.const, label: o.title ?? o.const })) ?? field.enum?.map((v) => ({ value: String(v), label: String(v) }));
  const describedBy = field.description ? `${name}-help` : undefined;
  const help = field.description ? <small id={describedBy}>{field.description}</small> : null;
  if (field.type === 'boolean') {
    return (
      <label className="check">
        <input type="checkbox" autoFocus={props.autoFocus} checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={describedBy} />
        {label}
        {help}
      </label>
    );
  }
  if (choices) {
    return (
      <label>
        {label}
        <select autoFocus={props.autoFocus} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value || undefined)} aria-describedby={describedBy}>
          {!props.required && <option value="">—</option>}
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        {help}
      </label>
    );
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  return (
    <label>
      {label}
      <input
        type={props.password ? 'password' : numeric ? 'number' : field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : 'text'}
        autoFocus={props.autoFocus}
        step={field.type === 'integer' ? 1 : undefined}
        min={field.minimum}
        max={field.maximum}
        value={value === undefined ? '' : String(value)}
        onChange={(e) => onChange(e.target.value === '' ? undefined : numeric ? Number(e.target.value) : e.target.value)}
        aria-describedby={describedBy}
      />
      {help}
    </label>
  );
}

function initialValues(fields: Record<string, McpQuestionField>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [name, f] of Object.entries(fields)) {
    const d = f.default;
    if (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean') out[name] = d;
    else if (f.type === 'boolean') out[name] = false;
  }
  return out;
}

function withValue(values: Record<string, Value>, name: string, value: Value | undefined): Record<string, Value> {
  const next = { ...values };
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
}
