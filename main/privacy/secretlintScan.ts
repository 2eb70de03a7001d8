// The maintained rule set (architecture §3 "Redact"): secretlint's recommended preset — AWS, GCP,
// GitHub, GitLab, Slack, OpenAI, Anthropic, npm, Stripe, private keys, basic auth, database URLs
// and more — run over the text read from an image. secretlint is written for files, so two
// things are adjusted here: the AWS access key id rule is off in the preset by default (it
// flags example ids in docs) and is turned on, because on a screen an AKIA… id is a key; and a
// few rules report a range that does not cover the secret itself (the AWS secret rule reports
// the label's start with the key's length), so the reported value is looked up in the text and
// the finding covers label and value both.
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { RedactionKind } from '../../common/privacy.ts';
import type { Finding } from './findings.ts';

const PRESET = '@secretlint/secretlint-rule-preset-recommend';
const CONFIG = {
  rules: [{ id: PRESET, rule: recommended, rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }] }],
};

const KINDS: Record<string, RedactionKind> = {
  aws: 'aws key',
  gcp: 'cloud key',
  github: 'github token',
  slack: 'slack token',
  privatekey: 'private key',
  basicauth: 'password',
  'database-connection-string': 'database url',
  '1password': 'secret',
  'hashicorp-vault': 'secret',
};

/** Findings of secretlint's recommended rules in `text` (offsets into it). */
export async function secretlintFindings(text: string): Promise<Finding[]> {
  if (!text.trim()) return [];
  const result = await lintSource({
    source: { filePath: '/glance/screen.txt', content: text, contentType: 'text' },
    options: { config: CONFIG, maskSecrets: false },
  });
  const findings: Finding[] = [];
  for (const m of result.messages) {
    const short = m.ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
    let [start, end] = m.range;
    // Where a reported value sits later than the range says (or past its end), cover it too.
    for (const value of Object.values(m.data ?? {})) {
      if (typeof value !== 'string' || value.length < 6) continue;
      const at = text.indexOf(value, Math.max(0, start - 1));
      if (at >= 0 && at <= end + 200) {
        start = Math.min(start, at);
        end = Math.max(end, at + value.length);
      }
    }
    // The AWS id rule takes a user's, a role's or a group's unique id (AIDA…, AROA…, AGPA…) for a key
    // id when OCR drops a character of its 21: anyone in the account sees those; AKIA and ASIA are keys.
    // Nor is the account's number, which every ARN of it shows ("Account": "586437172485" in the CLI's
    // answer): AWS does not count it secret.
    if (short === 'aws' && (/^(?:AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}$/.test(text.slice(start, end)) || /^["']?(?:aws)?_?account_?(?:id)?["']?\s*(?::|=>|=)\s*["']?\d{4}-?\d{4}-?\d{4}["']?$/i.test(text.slice(start, end)))) continue;
    findings.push({ start, end, kind: KINDS[short] ?? 'api key', rule: `secretlint:${short}` });
  }
  return findings;
}
