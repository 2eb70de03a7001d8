import { useState } from 'react';
import { patternProblem, type RedactCategory, type RedactPolicy } from '../../../common/privacy.ts';
import type { Settings } from '../../../common/settings.ts';
import { SaveRow, Section, useSave, useUnsaved } from './settingsParts.tsx';

const POLICIES: readonly (readonly [RedactPolicy, string])[] = [
  ['remote', 'When the model is not on this computer (recommended)'],
  ['always', 'Always, for every model'],
  ['never', 'Never'],
];

const CATEGORIES: readonly (readonly [RedactCategory, string])[] = [
  ['keys', 'Keys and tokens (AWS, GitHub, Slack, OpenAI, private keys, …)'],
  ['cards', 'Card numbers'],
  ['banking', 'IBANs'],
  ['passwords', 'Values after password, secret, token, api_key'],
  ['highEntropy', 'Other key-like text'],
  ['contact', 'Email addresses and phone numbers'],
];

type Own = { name: string; pattern: string };

/** One pattern a line, `name: regex`; what is wrong with a line, in the form's words. */
function parsePatterns(text: string): { patterns: Own[]; problems: string[] } {
  const patterns: Own[] = [];
  const problems: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    const pattern = colon > 0 ? line.slice(colon + 1).trim() : '';
    if (!name || !pattern) {
      problems.push(`Line ${i + 1}: write it as "name: pattern".`);
      continue;
    }
    if (name.length > 64) problems.push(`Line ${i + 1}: the name is longer than 64 characters.`);
    const problem = patternProblem(pattern);
    if (problem) problems.push(`Line ${i + 1}: ${problem}`);
    else patterns.push({ name, pattern });
  }
  return { patterns, problems };
}

export function PrivacySection({ settings }: { settings: Settings }) {
  const privacy = settings.privacy;
  const [redact, setRedact] = useState<RedactPolicy>(privacy.redact);
  const [categories, setCategories] = useState({ ...privacy.categories });
  const [patternsText, setPatternsText] = useState(() => privacy.patterns.map((p) => `${p.name}: ${p.pattern}`).join('\n'));
  const [appsText, setAppsText] = useState(() => privacy.excludedApps.join('\n'));
  const [state, save, setState] = useSave({ redact, categories, patternsText, appsText });
  useUnsaved(
    'privacy',
    redact !== privacy.redact ||
      JSON.stringify(categories) !== JSON.stringify(privacy.categories) ||
      patternsText.trim() !== privacy.patterns.map((p) => `${p.name}: ${p.pattern}`).join('\n') ||
      appsText.split('\n').map((l) => l.trim()).filter(Boolean).join('\n') !== privacy.excludedApps.join('\n'),
  );
  const parsed = parsePatterns(patternsText);
  const patternsInvalid = parsed.problems.length > 0;
  const submit = () => {
    if (patternsInvalid) return setState({ kind: 'error', text: parsed.problems.join(' ') });
    const excludedApps = appsText.split('\n').map((l) => l.trim()).filter(Boolean);
    void save({ privacy: { ...privacy, redact, categories, patterns: parsed.patterns, excludedApps } }, 'Saved. It applies from the next image.');
  };
  return (
    <Section id="privacy" title="Privacy" description="Secrets in images are found and hidden on this computer before a model gets them. The original stays here as it was.">
      <form
        className="grid-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <fieldset className="field full">
          <legend>Hide secrets in images</legend>
          {POLICIES.map(([value, label]) => (
            <label key={value} className="inline">
              <input type="radio" name="privacy-redact" value={value} checked={redact === value} onChange={() => setRedact(value)} /> {label}
            </label>
          ))}
        </fieldset>
        <fieldset className="field full">
          <legend>What to hide</legend>
          {CATEGORIES.map(([key, label]) => (
            <label key={key} className="inline">
              <input type="checkbox" checked={categories[key]} onChange={(e) => setCategories((c) => ({ ...c, [key]: e.target.checked }))} /> {label}
            </label>
          ))}
        </fieldset>
        <label className="field full">
          <span>Own patterns</span>
          <textarea
            rows={3}
            spellCheck={false}
            value={patternsText}
            placeholder="employee id: EMP-\d{6}"
            aria-invalid={patternsInvalid ? true : undefined}
            aria-describedby="privacy-patterns-note"
            onChange={(e) => setPatternsText(e.target.value)}
          />
          <small id="privacy-patterns-note" className={patternsInvalid ? 'error-text' : 'muted'}>
            {patternsInvalid ? parsed.problems.join(' ') : 'One a line, "name: regular expression". Text that matches is hidden too.'}
          </small>
        </label>
        <label className="field full">
          <span>Excluded apps</span>
          <textarea rows={4} spellCheck={false} value={appsText} aria-describedby="privacy-apps-note" onChange={(e) => setAppsText(e.target.value)} />
          <small id="privacy-apps-note" className="muted">
            One a line: a window whose app name or title holds one of these is filled whole in a screen capture.
          </small>
        </label>
        <SaveRow label="Save privacy" state={state} />
      </form>
    </Section>
  );
}
