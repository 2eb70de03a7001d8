// Standing answers for tools that can change things (architecture §5, §11): the rules the
// approval card's "Always" stores, and ones a person writes here — a tool's name as the model
// sees it or a pattern. Main reads them at every call, so a change applies to the next one.
import { useEffect, useState } from 'react';
import type { Settings, ToolPolicy } from '../../../common/settings.ts';
import { globMatch, isToolGlob } from '../../../common/toolPolicy.ts';
import { useApp } from '../../state/store.ts';
import { listNames } from '../RefusalAlerts.tsx';
import { Feedback, Section, useSave, useUnsaved } from './settingsParts.tsx';

type Decision = ToolPolicy[string];
const DECISIONS: [Decision, string][] = [
  ['ask', 'Ask every time'],
  ['allow', 'Always allow'],
  ['deny', 'Never run'],
];
const decisionOptions = DECISIONS.map(([v, label]) => (
  <option key={v} value={v}>
    {label}
  </option>
));
const SAID: Record<Decision, string> = { ask: 'asks every time', allow: 'always allowed', deny: 'never runs' };
const decisionText = (d: Decision) => SAID[d];

/** Built-in tools that may ask (the desktop screenshot, when the model runs off this machine). */
const BUILT_IN_ASKING = ['screenshot_desktop'];
const MAX_NAME = 200;

/** As main's hub names tools: anything outside [a-zA-Z0-9_-] becomes "_". */
const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');

/** The names the model sees for MCP tools (`server__tool`, as main's hub makes them). */
function modelNames(servers: readonly { name: string; tools: readonly string[] }[]): string[] {
  return [...servers.flatMap((s) => s.tools.map((t) => `${clean(s.name)}__${clean(t)}`)), ...BUILT_IN_ASKING];
}

/** Why a typed rule cannot be stored, in plain words; null when it can. */
function ruleProblem(name: string, policy: ToolPolicy): string | null {
  if (name === '') return 'Type a tool’s name as the model sees it (such as files__write_file) or a pattern (files__* covers a whole server).';
  if (/\s/.test(name)) return `“${name}” has a space in it; tool names have none.`;
  if (name.length > MAX_NAME) return `A tool name or pattern is at most ${MAX_NAME} characters.`;
  if (Object.hasOwn(policy, name)) return `There is already a rule for ${name}: change its decision in the list.`;
  return null;
}

/** Display titles by the name the model sees (MCP tool.title / annotations.title). */
function titlesOf(servers: readonly { name: string; toolTitles?: Record<string, string> }[]): Map<string, string> {
  return new Map(servers.flatMap((s) => Object.entries(s.toolTitles ?? {}).map(([tool, title]) => [`${clean(s.name)}__${clean(tool)}`, title] as [string, string])));
}

/** What a rule covers among the tools known now. */
function covers(rule: string, known: readonly string[], titles: ReadonlyMap<string, string>): string {
  const matched = isToolGlob(rule) ? known.filter((n) => globMatch(rule, n)) : known.filter((n) => n === rule);
  if (!matched.length) return 'no tool now';
  if (!isToolGlob(rule)) return titles.get(rule) ?? 'this tool';
  return matched.length > 3 ? `${matched.length} tools: ${matched.slice(0, 3).join(', ')}…` : listNames(matched);
}

export function ToolApprovalSection({ settings }: { settings: Settings }) {
  const servers = useApp((s) => s.mcpServers);
  const loadMcp = useApp((s) => s.loadMcp);
  const [state, save, setState] = useSave();
  const [name, setName] = useState('');
  // A new rule starts at "Ask every time": allowing is a choice to make, not a default.
  const [decision, setDecision] = useState<Decision>('ask');
  const [nameInvalid, setNameInvalid] = useState(false);
  useEffect(() => {
    void loadMcp();
  }, [loadMcp]);
  const policy = settings.toolApproval;
  const known = modelNames(servers);
  const titles = titlesOf(servers);
  const rules = Object.entries(policy).sort(([a], [b]) => a.localeCompare(b));
  // A rule typed and not added (one that is already in the list loses nothing).
  useUnsaved('tools', name.trim() !== '' && !(name.trim() in policy));

  const change = (rule: string, value: Decision) => void save({ toolApproval: { ...policy, [rule]: value } }, `${rule}: ${decisionText(value)}.`);
  const remove = (rule: string) => {
    const next = { ...policy };
    delete next[rule];
    void save({ toolApproval: next }, `Rule for ${rule} removed: it asks again.`);
  };
  const add = async () => {
    const rule = name.trim();
    const problem = ruleProblem(rule, policy);
    setNameInvalid(problem !== null);
    if (problem) return setState({ kind: 'error', text: problem });
    const unknown = !known.some((n) => globMatch(rule, n));
    const saved = await save(
      { toolApproval: { ...policy, [rule]: decision } },
      `${rule}: ${decisionText(decision)}.${unknown ? ` No tool Glance knows now is ${isToolGlob(rule) ? 'matched by' : 'called'} ${rule}; the rule applies once one is.` : ''}`,
    );
    if (saved) setName('');
  };

  return (
    <Section
      id="tools"
      title="Tool approval"
      description="Tools that can change things (an MCP tool that writes or deletes; the desktop screenshot when the model runs elsewhere) ask in the chat before they run. A rule here answers for you, from the next call on. An exact name wins over a pattern."
    >
      {rules.length ? (
        <div className="table-wrap">
          <table className="models-table" aria-label="Tool rules">
            <thead>
              <tr>
                <th scope="col">Tool or pattern</th>
                <th scope="col">Covers</th>
                <th scope="col">Decision</th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map(([rule, value]) => (
                <tr key={rule}>
                  <th scope="row">
                    <code>{rule}</code>
                  </th>
                  <td className="muted small-text">{covers(rule, known, titles)}</td>
                  <td>
                    <select aria-label={`Decision for ${rule}`} value={value} onChange={(e) => change(rule, e.target.value as Decision)}>
                      {decisionOptions}
                    </select>
                  </td>
                  <td>
                    <button type="button" className="ghost small" aria-label={`Remove rule for ${rule}`} onClick={() => remove(rule)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No rules yet: every tool that can change things asks first.</p>
      )}
      <form
        className="field-row"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label className="field grow">
          <span>Tool or pattern</span>
          <input value={name} list="known-tools" spellCheck={false} placeholder="files__write_file or files__*" aria-invalid={nameInvalid || undefined} onChange={(e) => (setName(e.target.value), setNameInvalid(false))} />
          <datalist id="known-tools">
            {known.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </label>
        <label className="field">
          <span>Decision</span>
          <select aria-label="Decision" value={decision} onChange={(e) => setDecision(e.target.value as Decision)}>
            {decisionOptions}
          </select>
        </label>
        <button type="submit" className="primary">
          Add rule
        </button>
      </form>
      <Feedback state={state} />
    </Section>
  );
}
