import type { Settings } from '../../../common/settings.ts';
import { modelKey, selectionOf } from '../../state/modelsSlice.ts';
import { useApp } from '../../state/store.ts';
import { VisionBadge, visionSourceText } from '../ModelPicker.tsx';
import { Feedback, Section, useSave } from './settingsParts.tsx';

export function VisionSection({ settings }: { settings: Settings }) {
  const models = useApp((s) => s.models);
  const [state, save] = useSave();
  const [helperState, saveHelper] = useSave();
  const seers = models.filter((m) => m.capabilities.vision === 'yes');
  const helperKey = settings.visionHelper ? modelKey(settings.visionHelper) : '';

  const setOverride = (endpoint: string, name: string, value: string) => {
    const vision: Settings['vision'] = structuredClone(settings.vision);
    const forEndpoint = { ...(vision[endpoint] ?? {}) };
    if (value === 'yes' || value === 'no') forEndpoint[name] = value;
    else delete forEndpoint[name];
    if (Object.keys(forEndpoint).length) vision[endpoint] = forEndpoint;
    else delete vision[endpoint];
    void save({ vision }, `${name}: ${value === 'auto' ? 'detected again' : `vision ${value}`}.`);
  };

  return (
    <Section id="vision" title="Vision" description="Whether each model can see. Glance asks the server; where it says nothing, declare it here.">
      <div className="table-wrap">
        <table className="models-table stacks" aria-label="Vision per model">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Endpoint</th>
              <th scope="col">Glance thinks</th>
              <th scope="col">Declare</th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => {
              const declared = settings.vision[m.endpoint]?.[m.name];
              return (
                <tr key={modelKey(m)}>
                  <th scope="row">{m.name}</th>
                  <td data-label="Endpoint">{m.endpoint}</td>
                  <td data-label="Glance thinks">
                    <VisionBadge model={m} />{' '}
                    <span className="muted small-text">{m.capabilities.visionSource === 'none' ? 'its server does not say' : `per ${visionSourceText(m.capabilities.visionSource)}`}</span>
                  </td>
                  <td data-label="Declare">
                    <select aria-label={`Vision for ${m.name}`} value={declared ?? 'auto'} onChange={(e) => setOverride(m.endpoint, m.name, e.target.value)}>
                      <option value="auto">Detect</option>
                      <option value="yes">Sees images</option>
                      <option value="no">Text only</option>
                    </select>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Feedback state={state} />
      <h3>Vision helper</h3>
      <p className="muted">A model that sees describes images for a chat model that cannot. Its description is all the chat model receives.</p>
      <label className="field">
        <span>Helper model</span>
        <select
          aria-label="Vision helper"
          value={helperKey}
          onChange={(e) => {
            const m = seers.find((s) => modelKey(s) === e.target.value);
            void saveHelper({ visionHelper: m ? selectionOf(m) : null }, m ? `${m.name} describes images for blind models.` : 'No vision helper.');
          }}
        >
          <option value="">None</option>
          {seers.map((m) => (
            <option key={modelKey(m)} value={modelKey(m)}>
              {m.name} ({m.endpoint})
            </option>
          ))}
        </select>
      </label>
      <Feedback state={helperState} />
    </Section>
  );
}

