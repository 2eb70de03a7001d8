import { useState } from 'react';
import type { Settings } from '../../../common/settings.ts';
import { SaveRow, Section, useSave, useUnsaved } from './settingsParts.tsx';

const MB = 1024 * 1024;

type Limits = Settings['limits'];
/** A field of the form: its label, how the stored number shows (scale) and whether it must be whole. */
type Field = { key: keyof Limits; label: string; scale: number; whole: boolean; min: number; hint: string };

const FIELDS: Field[] = [
  { key: 'ingestBytes', label: 'Largest file (MB)', scale: MB, whole: false, min: 0, hint: 'Bigger files are refused before they are read.' },
  { key: 'maxInputPixels', label: 'Most pixels (megapixels)', scale: 1e6, whole: false, min: 0, hint: 'Guards against decompression bombs.' },
  { key: 'maxImageDeliveriesPerTurn', label: 'Tool images shown per turn', scale: 1, whole: true, min: 0, hint: 'Captures a model may look at in one answer.' },
  { key: 'maxImagesPerRequest', label: 'Images per request', scale: 1, whole: true, min: 1, hint: 'Older images become text stubs.' },
  { key: 'fetchTimeoutMs', label: 'Image download timeout (s)', scale: 1000, whole: false, min: 0, hint: 'For http(s) image sources.' },
  { key: 'maxStepsPerTurn', label: 'Model steps per turn', scale: 1, whole: true, min: 1, hint: 'A model that keeps calling tools is stopped here.' },
  { key: 'streamIdleMs', label: 'Model silence timeout (s)', scale: 1000, whole: false, min: 0, hint: 'An answer that stalls this long is stopped; what arrived is kept.' },
  { key: 'maxAnswerMs', label: 'Longest answer time (min)', scale: 60_000, whole: false, min: 0, hint: 'One answer running longer is stopped; what arrived is kept.' },
  { key: 'maxStoredImagesPerToolResult', label: 'Images kept per tool result', scale: 1, whole: true, min: 0, hint: 'Past it, an MCP result’s images are dropped with a note.' },
  { key: 'maxStoredBytesPerToolResult', label: 'MB kept per tool result', scale: MB, whole: false, min: 0, hint: 'Past it, an MCP result’s images and files are dropped with a note.' },
  { key: 'mcpTurnWaitMs', label: 'Wait for a starting MCP server (s)', scale: 1000, whole: false, min: 0, hint: 'Counted from the server’s start; past it a chat goes on without its tools, which join once it is ready.' },
];

/** 0.001 MB shows as 0.001, not 0: three significant digits, no trailing zeros. */
function shown(value: number, scale: number): string {
  return String(Number((value / scale).toPrecision(3)));
}

/** The stored number for what was typed, or why it cannot be one — in the form's words. */
function parseLimit(field: Field, text: string): { ok: true; value: number } | { ok: false; message: string } {
  const n = Number(text.trim().replace(',', '.'));
  if (text.trim() === '' || !Number.isFinite(n)) return { ok: false, message: `${field.label} must be a number.` };
  if (field.whole && !Number.isInteger(n)) return { ok: false, message: `${field.label} must be a whole number.` };
  if (n < field.min || (field.min === 0 && n === 0 && field.scale !== 1)) return { ok: false, message: `${field.label} must be more than ${field.min}.` };
  const value = Math.round(n * field.scale);
  // A value too small to store (less than a byte or a millisecond) is refused, not rounded to 0.
  if (value === 0 && n > 0) return { ok: false, message: `${field.label} is too small: the smallest is ${shown(1, field.scale)}.` };
  return { ok: true, value };
}

export function LimitsSection({ settings }: { settings: Settings }) {
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(FIELDS.map((f) => [f.key, shown(settings.limits[f.key], f.scale)])));
  const [retention, setRetention] = useState(settings.attachments.retentionDays);
  const [state, save, setState] = useSave({ texts, retention });
  useUnsaved(
    'limits',
    retention !== settings.attachments.retentionDays ||
      FIELDS.some((f) => {
        const parsed = parseLimit(f, texts[f.key] ?? '');
        return !parsed.ok || parsed.value !== settings.limits[f.key];
      }),
  );
  const submit = () => {
    const limits = { ...settings.limits };
    const problems: string[] = [];
    for (const f of FIELDS) {
      const parsed = parseLimit(f, texts[f.key] ?? '');
      if (parsed.ok) limits[f.key] = parsed.value;
      else problems.push(parsed.message);
    }
    if (problems.length) return setState({ kind: 'error', text: problems.join(' ') });
    void save({ limits, attachments: { retentionDays: retention } }, 'Saved. New limits apply from the next image and the next message.');
  };
  return (
    <Section id="limits" title="Limits" description="What Glance accepts and how many images a model sees. Changes apply at once.">
      <form
        className="grid-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {FIELDS.map((f) => {
          // Checked as typed: the field is marked and says why, before Save.
          const parsed = parseLimit(f, texts[f.key] ?? '');
          const problem = parsed.ok ? null : parsed.message;
          return (
            <label key={f.key} className="field">
              <span>{f.label}</span>
              <input
                inputMode="decimal"
                value={texts[f.key] ?? ''}
                aria-invalid={problem ? true : undefined}
                aria-describedby={`limit-${f.key}-note`}
                onChange={(e) => setTexts((t) => ({ ...t, [f.key]: e.target.value }))}
              />
              <small id={`limit-${f.key}-note`} className={problem ? 'error-text' : 'muted'}>
                {problem ?? f.hint}
              </small>
            </label>
          );
        })}
        <fieldset className="field">
          <legend>Keep attachments</legend>
          <label className="inline">
            <input type="checkbox" checked={retention === null} onChange={(e) => setRetention(e.target.checked ? null : 90)} /> forever
          </label>
          {retention !== null && (
            <label className="inline">
              <input type="number" min={1} max={3650} value={retention} aria-label="Days to keep attachments" onChange={(e) => setRetention(Math.max(1, Number(e.target.value) || 1))} /> days after last use
            </label>
          )}
        </fieldset>
        <SaveRow label="Save limits" state={state} />
      </form>
    </Section>
  );
}

