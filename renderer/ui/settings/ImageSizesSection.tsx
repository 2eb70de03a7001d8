// A person's image size per model (architecture §4a: "a per-model override wins"). Blank means
// the model's own rule decides; a size set here is what main fits images to from the next one.
import { useEffect, useId, useState } from 'react';
import type { ListedModel } from '../../../common/ipc.ts';
import { IMAGE_EDGE_RANGE, IMAGE_PIXELS_RANGE, imageSizeFor, type ImageSizeOverride, type Settings } from '../../../common/settings.ts';
import { selectionOf } from '../../state/modelsSlice.ts';
import { useApp } from '../../state/store.ts';
import { Feedback, Section, useSave, useUnsaved } from './settingsParts.tsx';

type Row = { endpoint: string; name: string; edge: string; megapixels: string };
const rowKey = (r: Pick<Row, 'endpoint' | 'name'>) => `${r.endpoint}\u0000${r.name}`;
const mp = (pixels: number) => String(Number((pixels / 1e6).toPrecision(3)));

/** Every model that may see (listed, not text-only) and every one with a stored size. */
function rowsFor(settings: Settings, models: readonly ListedModel[]): Row[] {
  const rows = new Map<string, Row>();
  const add = (endpoint: string, name: string, size: ImageSizeOverride | undefined) => {
    const row = { endpoint, name, edge: size?.maxLongEdge ? String(size.maxLongEdge) : '', megapixels: size?.maxPixels ? mp(size.maxPixels) : '' };
    rows.set(rowKey(row), row);
  };
  for (const m of models) if (m.capabilities.vision !== 'no') add(m.endpoint, m.name, imageSizeFor(settings, selectionOf(m)));
  for (const [endpoint, byName] of Object.entries(settings.imageSizes)) {
    for (const [name, size] of Object.entries(byName)) if (!rows.has(rowKey({ endpoint, name }))) add(endpoint, name, size);
  }
  return [...rows.values()];
}

/** The stored number for what was typed (blank: none), or why it cannot be one — in the form's words. */
function parseSize(kind: 'edge' | 'megapixels', model: string, text: string): { ok: true; value?: number } | { ok: false; message: string } {
  const t = text.trim().replace(',', '.');
  if (t === '') return { ok: true };
  const n = Number(t);
  if (kind === 'edge') {
    const { min, max } = IMAGE_EDGE_RANGE;
    if (!Number.isFinite(n) || !Number.isInteger(n)) return { ok: false, message: `Longest edge for ${model} must be a whole number of pixels (or blank).` };
    if (n < min || n > max) return { ok: false, message: `Longest edge for ${model} must be between ${min} and ${max} pixels.` };
    return { ok: true, value: n };
  }
  const { min, max } = IMAGE_PIXELS_RANGE;
  if (!Number.isFinite(n)) return { ok: false, message: `Most pixels for ${model} must be a number of megapixels (or blank).` };
  const pixels = Math.round(n * 1e6);
  if (pixels < min || pixels > max) return { ok: false, message: `Most pixels for ${model} must be between ${mp(min)} and ${mp(max)} megapixels.` };
  return { ok: true, value: pixels };
}

/** One size, checked as typed: marked invalid with its reason under it (a negative edge says so at once). */
function SizeInput({ kind, row, onChange }: { kind: 'edge' | 'megapixels'; row: Row; onChange: (value: string) => void }) {
  const value = kind === 'edge' ? row.edge : row.megapixels;
  const parsed = parseSize(kind, row.name, value);
  const noteId = useId();
  return (
    <>
      <input
        className="number"
        inputMode={kind === 'edge' ? 'numeric' : 'decimal'}
        aria-label={kind === 'edge' ? `Longest edge for ${row.name}` : `Most pixels for ${row.name}`}
        placeholder="model’s rule"
        value={value}
        aria-invalid={parsed.ok ? undefined : true}
        aria-describedby={parsed.ok ? undefined : noteId}
        onChange={(e) => onChange(e.target.value)}
      />
      {!parsed.ok && (
        <small id={noteId} className="error-text field-note">
          {parsed.message}
        </small>
      )}
    </>
  );
}

export function ImageSizesSection({ settings }: { settings: Settings }) {
  const models = useApp((s) => s.models);
  const [rows, setRows] = useState<Row[]>(() => rowsFor(settings, models));
  const [state, save, setState] = useSave(rows);
  const stored = new Map(rowsFor(settings, models).map((r) => [rowKey(r), r]));
  useUnsaved('images', rows.some((r) => r.edge.trim() !== (stored.get(rowKey(r))?.edge ?? '') || r.megapixels.trim() !== (stored.get(rowKey(r))?.megapixels ?? '')));
  // The list of models arrives after the page: new rows join, typed ones stay as typed.
  useEffect(() => {
    setRows((typed) => {
      const byKey = new Map(typed.map((r) => [rowKey(r), r]));
      return rowsFor(settings, models).map((r) => byKey.get(rowKey(r)) ?? r);
    });
  }, [models, settings]);

  const edit = (key: string, field: 'edge' | 'megapixels', value: string) => setRows((rs) => rs.map((r) => (rowKey(r) === key ? { ...r, [field]: value } : r)));
  const submit = () => {
    const imageSizes: Settings['imageSizes'] = {};
    const problems: string[] = [];
    for (const r of rows) {
      const edge = parseSize('edge', r.name, r.edge);
      const pixels = parseSize('megapixels', r.name, r.megapixels);
      if (!edge.ok) problems.push(edge.message);
      if (!pixels.ok) problems.push(pixels.message);
      if (!edge.ok || !pixels.ok || (edge.value === undefined && pixels.value === undefined)) continue;
      const size: ImageSizeOverride = {};
      if (edge.value !== undefined) size.maxLongEdge = edge.value;
      if (pixels.value !== undefined) size.maxPixels = pixels.value;
      (imageSizes[r.endpoint] ??= {})[r.name] = size;
    }
    if (problems.length) return setState({ kind: 'error', text: problems.join(' ') });
    void save({ imageSizes }, 'Saved. Images attached from now on are fitted to these sizes; blank ones follow the model’s own rule.');
  };

  return (
    <Section
      id="images"
      title="Image sizes"
      description="Glance sends each model the largest image its server keeps (a 4K screen goes to gemma3 as 896×896, to qwen2.5-vl as 2393×1346). Set a longest edge or a pixel budget to send a model smaller images (fewer tokens, faster) or larger ones; leave both blank for the model’s own rule."
    >
      {rows.length === 0 ? (
        <p className="muted">No model that can see is listed yet.</p>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <div className="table-wrap">
            <table className="models-table stacks" aria-label="Image size per model">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Endpoint</th>
                  <th scope="col">Longest edge (px)</th>
                  <th scope="col">Most pixels (MP)</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={rowKey(r)}>
                    <th scope="row">{r.name}</th>
                    <td data-label="Endpoint">{r.endpoint}</td>
                    <td data-label="Longest edge (px)">
                      <SizeInput kind="edge" row={r} onChange={(v) => edit(rowKey(r), 'edge', v)} />
                    </td>
                    <td data-label="Most pixels (MP)">
                      <SizeInput kind="megapixels" row={r} onChange={(v) => edit(rowKey(r), 'megapixels', v)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="field-row">
            <button type="submit" className="primary">
              Save image sizes
            </button>
            <Feedback state={state} />
          </div>
        </form>
      )}
    </Section>
  );
}
