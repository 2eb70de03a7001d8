import { useState } from 'react';
import type { Settings } from '../../../common/settings.ts';
import { Feedback, Section, useSave } from './settingsParts.tsx';

const MB = 1024 * 1024;

export function LimitsSection({ settings }: { settings: Settings }) {
  const [draft, setDraft] = useState(settings.limits);
  const [retention, setRetention] = useState(settings.attachments.retentionDays);
  const [state, save] = useSave();
  const num = (value: string) => (value === '' ? NaN : Number(value));
  const field = (label: string, value: number, onChange: (n: number) => void, hint: string, step = 1) => (
    <label className="field">
      <span>{label}</span>
      <input type="number" min={0} step={step} value={Number.isFinite(value) ? value : ''} onChange={(e) => onChange(num(e.target.value))} />
      <small className="muted">{hint}</small>
    </label>
  );
  return (
    <Section id="limits" title="Limits" description="What Glance accepts and how many images a model sees.">
      <form
        className="grid-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save({ limits: draft, attachments: { retentionDays: retention } });
        }}
      >
        {field('Largest file (MB)', Math.round((draft.ingestBytes / MB) * 10) / 10, (n) => setDraft({ ...draft, ingestBytes: Math.round(n * MB) }), 'Bigger files are refused before they are read.', 0.1)}
        {field('Most pixels (megapixels)', draft.maxInputPixels / 1e6, (n) => setDraft({ ...draft, maxInputPixels: Math.round(n * 1e6) }), 'Guards against decompression bombs.')}
        {field('Tool images shown per turn', draft.maxImageDeliveriesPerTurn, (n) => setDraft({ ...draft, maxImageDeliveriesPerTurn: n }), 'Captures a model may look at in one answer.')}
        {field('Images per request', draft.maxImagesPerRequest, (n) => setDraft({ ...draft, maxImagesPerRequest: n }), 'Older images become text stubs.')}
        {field('Image download timeout (s)', draft.fetchTimeoutMs / 1000, (n) => setDraft({ ...draft, fetchTimeoutMs: Math.round(n * 1000) }), 'For http(s) image sources.')}
        {field('Model steps per turn', draft.maxStepsPerTurn, (n) => setDraft({ ...draft, maxStepsPerTurn: n }), 'A model that keeps calling tools is stopped here.')}
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
        <div className="field-row full">
          <button type="submit" className="primary">
            Save limits
          </button>
          <Feedback state={state} />
        </div>
      </form>
    </Section>
  );
}

