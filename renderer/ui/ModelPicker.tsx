import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ListedModel } from '../../common/ipc.ts';
import type { VisionSource } from '../../common/models.ts';
import { findModel, modelKey, needsVisionPull, selectionOf, SUGGESTED_VISION_MODEL } from '../state/modelsSlice.ts';
import { ServerStatus } from './ServerStatus.tsx';
import { useApp } from '../state/store.ts';
import { ChevronIcon } from './icons.tsx';

const SOURCE_TEXT: Record<VisionSource, string> = {
  'ollama-capabilities': 'Ollama capabilities',
  'ollama-projector': 'Ollama projector info',
  'openrouter-metadata': 'OpenRouter metadata',
  'llamacpp-props': 'llama.cpp /props',
  'openai-metadata': 'endpoint metadata',
  settings: 'your settings',
  flag: 'command line',
  none: 'not reported',
};

export function visionSourceText(source: VisionSource): string {
  return SOURCE_TEXT[source];
}

export function VisionBadge({ model }: { model: ListedModel }) {
  const { vision, visionSource } = model.capabilities;
  const from = `from ${SOURCE_TEXT[visionSource]}`;
  if (vision === 'yes') {
    return (
      <span className="badge vision" title={`Sees images (${from})`}>
        vision
      </span>
    );
  }
  if (vision === 'no') {
    return (
      <span className="badge blind" title={`Text only (${from})`}>
        text only
      </span>
    );
  }
  return (
    <span className="badge unknown" title="Glance does not know whether this model sees: declare it in Settings">
      unknown
    </span>
  );
}

/** A select-only combobox (WAI-ARIA 1.2): focus stays on it, options are its listbox. */
export function ModelPicker() {
  const models = useApp((s) => s.models);
  const selected = useApp((s) => s.selectedModel);
  const select = useApp((s) => s.selectModel);
  const loading = useApp((s) => s.modelsLoading);
  const errors = useApp((s) => s.modelErrors);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const current = findModel(models, selected);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const openList = () => {
    setActive(Math.max(0, models.findIndex((m) => current && modelKey(m) === modelKey(current))));
    setOpen(true);
  };
  const choose = (index: number) => {
    const m = models[index];
    if (m) select(selectionOf(m));
    setOpen(false);
  };
  const onKey = (e: KeyboardEvent) => {
    if (!open) {
      if (['ArrowDown', 'ArrowUp', 'Enter', ' '].includes(e.key)) {
        e.preventDefault();
        openList();
      }
      return;
    }
    const last = models.length - 1;
    if (e.key === 'ArrowDown') setActive((a) => Math.min(last, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Home') setActive(0);
    else if (e.key === 'End') setActive(last);
    else if (e.key === 'Enter' || e.key === ' ') choose(active);
    else if (e.key === 'Escape' || e.key === 'Tab') {
      setOpen(false);
      if (e.key === 'Tab') return;
    } else return;
    e.preventDefault();
  };

  const label = current ? current.name : selected ? selected.name : loading && !errors.length ? 'Loading models…' : models.length ? 'Choose a model' : errors.length ? 'Not connected' : 'No models';
  return (
    <div className="model-picker" ref={root}>
      <button
        type="button"
        role="combobox"
        aria-label="Model"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && models[active] ? `${listId}-${active}` : undefined}
        className="combobox"
        onClick={() => (open ? setOpen(false) : openList())}
        onKeyDown={onKey}
      >
        <span className="model-name">{label}</span>
        {current && <VisionBadge model={current} />}
        <ChevronIcon dir={open ? 'up' : 'down'} />
      </button>
      {open && (
        <ul role="listbox" id={listId} aria-label="Models" className="listbox">
          {models.map((m, i) => (
            <li
              key={modelKey(m)}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={current !== undefined && modelKey(m) === modelKey(current)}
              className={i === active ? 'active' : ''}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(i)}
            >
              <span className="model-name">{m.name}</span>
              <VisionBadge model={m} />
              <span className="source">
                {m.endpoint} · {m.capabilities.vision === 'unknown' ? 'vision not reported' : `per ${SOURCE_TEXT[m.capabilities.visionSource]}`}
              </span>
            </li>
          ))}
          {models.length === 0 && (
            <li role="option" aria-disabled="true" aria-selected={false} className="muted">
              {errors.length ? 'No endpoint answered' : 'No models installed'}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

/** Under the toolbar: how to get vision with a blind model, and the pull offer. */
export function ModelHints() {
  const models = useApp((s) => s.models);
  const errors = useApp((s) => s.modelErrors);
  // Main's verdict (models:route), not a guess from the list: a helper that cannot see describes nothing.
  const route = useApp((s) => s.imageRoute);
  const pull = useApp((s) => s.pull);
  const startPull = useApp((s) => s.pullModel);
  const cancelPull = useApp((s) => s.cancelPull);
  const seers = models.filter((m) => m.capabilities.vision === 'yes');
  const offerPull = needsVisionPull(models, errors) && !models.some((m) => m.name === SUGGESTED_VISION_MODEL);

  return (
    <>
      <ServerStatus />
      {route && route.way !== 'pixels' && (
        <div className="hint" role="note" aria-label="Vision">
          {route.way === 'described' ? (
            <>
              <strong>{route.chat}</strong> can't see images; your vision helper <strong>{route.seer}</strong> describes them to it.
            </>
          ) : (
            <>
              <strong>{route.chat}</strong> {route.way === 'text' ? "can't see images" : 'may not see images (its server does not say)'}. To use images,{' '}
              {seers.length ? (
                <>
                  pick a model with the <span className="badge vision">vision</span> badge (such as <strong>{seers[0]!.name}</strong>)
                </>
              ) : (
                <>pull a vision model</>
              )}{' '}
              or set a vision helper in <a href="#/settings/vision">Settings</a>
              {route.way === 'unknown' ? ', or declare its vision there' : ''}.
              {route.way === 'text' && ' Until then, an image with text goes to it as the text local OCR reads.'}
            </>
          )}
        </div>
      )}
      {(offerPull || pull) && (
        <div className="hint pull" role="region" aria-label="Get a vision model">
          {!pull || pull.state === 'cancelled' || pull.state === 'failed' ? (
            <>
              <span>None of your Ollama models can see images. Pull <strong>{SUGGESTED_VISION_MODEL}</strong> (about 3.3 GB) to give Glance eyes.</span>
              <button type="button" className="primary small" onClick={() => void startPull(SUGGESTED_VISION_MODEL)}>
                Pull {SUGGESTED_VISION_MODEL}
              </button>
              {pull?.message && <span className={pull.state === 'failed' ? 'error-text' : 'muted'}>{pull.message}</span>}
            </>
          ) : pull.state === 'running' ? (
            <>
              <span>
                Pulling <strong>{pull.name}</strong>: {pull.status}
                {pull.total ? ` — ${Math.floor(((pull.completed ?? 0) / pull.total) * 100)}%` : ''}
              </span>
              <progress aria-label={`Pulling ${pull.name}`} max={pull.total ?? 1} value={pull.total ? (pull.completed ?? 0) : undefined} />
              <button type="button" className="ghost small" onClick={() => void cancelPull()}>
                Cancel pull
              </button>
            </>
          ) : (
            <span role="status">
              <strong>{pull.name}</strong> is ready.
            </span>
          )}
        </div>
      )}
    </>
  );
}
