// Ordinary screens full of identifiers that look random and are public — SSH public keys, AWS ARNs
// and resource ids, checksums beside their file names, image digests, event ids beside a file's path,
// the ids in a web address —
// are left alone (issue 41: at most 2% of ordinary text masked). The screens are this test's own
// (test/fixtures/lookAlikeScreens.ts), written apart from the corpus and the held-out sets; Chromium renders them, the production reader
// (RegionReader over tesseract) reads them, and leakScore.ts measures the share of their text area
// that was filled.
import { describe, expect, it } from 'vitest';
import { lookAlikeScreen } from '../fixtures/lookAlikeScreens.ts';
import { renderedRedaction } from '../support/renderedRedaction.ts';

const { check } = renderedRedaction();
const SIZE = { name: '1280×800', width: 1280, height: 800, scale: 1 };

const screen = (name: string, seed: number, theme: string, fontPx = 14) => lookAlikeScreen(name, { seed, size: SIZE, fontPx, theme });

describe('public identifiers that look random are left alone (real Chromium, real tesseract)', { timeout: 180_000 }, () => {
  // Each was masked before the change its comment names (the share as then measured).
  it.each([
    // Lines of SSH public keys and the wrapped lines of one (73.9%: the entropy rule on each).
    ['ssh public keys', 1, 'dark+', 14],
    // An IAM user's and a role's ids, the account's number, a secret's ARN, a subnet's id (19.4%).
    ['aws cli output', 2, 'light+', 14],
    // A commit after a workflow's path, its dot read as a dash: one run "path-<hash>" (10.2%).
    ['deploys with commits', 4, 'dark+', 14],
    // The dim lines of commits read again with a slice of the title above in the crop (17.6%: the
    // second look read nonsense, and the fail-safe hid the unread ink).
    ['deploys with commits', 1, 'monokai', 13],
    // Build markup beside the editor's file tree: a tag and its attribute made a saved password (13.4%).
    ['checksum xml', 5, 'light+', 14],
    // Checksums beside file names, image digests, a pip hash, a commit, a UUID (0%: a guard).
    ['checksums and digests', 3, 'monokai', 14],
    // JSON Web Keys: a modulus that wraps, an EC key's x and y, key ids and thumbprints (the entropy
    // rule on each line; the second look read the modulus's lines again in pieces, without its name).
    ['openid signing keys', 1, 'dark+', 14],
    ['openid signing keys', 2, 'light+', 13],
    // Charges', invoices' and customers' ids beside an e-mail, request ids (the entropy rule on the
    // ids, a customer's id beside an e-mail taken for a saved password).
    ['billing object ids', 1, 'light+', 14],
    // A container's id after containerd://, a secret's checksum named "checksum/secret", and kubectl's
    // "<set to the key … in secret …>" where a secret's value would be.
    ['pod checksums', 1, 'monokai', 14],
    // …and where the placeholder quotes the key's name ("the key 'password' in secret 'smtp'"), the
    // word under it in the next placeholder taken for the value of a column headed "password" (2.3%).
    ['pod checksums', 1, 'dark+', 13],
    // An integrity hash that wraps, a captcha's site key, a meta tag's content, an icon's bytes in JSON.
    ['template with integrity', 1, 'light+', 14],
    // Generated document ids and revision ids in columns so headed (40.6–61.0%: the entropy rule on
    // each cell, a revision id beside a collection's name taken for a saved password; at 12 px a
    // header read "Revision ID." and the fail-safe on a cell it could not read).
    ['document ids table', 2, 'dark+', 13],
    ['document ids table', 4, 'light+', 12],
    // A browser's history: documents, videos, products and places by the ids in their addresses, an
    // ad click's id that wraps (39.6% and 58.1%: the entropy rule on the ids, the fail-safe on the
    // lines OCR read unsure).
    ['browser addresses', 1, 'light+', 14],
    ['browser addresses', 2, 'light+', 14],
    // journalctl -o verbose: a cursor, boot, machine, stream and invocation ids, a time in microseconds
    // that passes Luhn (22.5% and 17.0%: a card number, a field's name and value taken for a key by
    // its capitals, the fail-safe on the cursor and on a field OCR read unsure).
    ['journal entries verbose', 1, 'dark+', 13],
    ['journal entries verbose', 4, 'github-light', 15],
    // IRC commands with no password, a sentence naming a password before a place, a card code's
    // count, a question's number and slug, a task's id with a prefix in capitals (a guard).
    ['chatter about credentials', 1, 'dark+', 14],
    ['chatter about credentials', 2, 'light+', 13],
  ] as const)('%s (seed %i, %s, %i px)', async (name, seed, theme, fontPx) => {
    const r = await check(screen(name, seed, theme, fontPx));
    expect(r.maskedShare, `${name}: ${(r.maskedShare * 100).toFixed(1)}% of its text masked by ${r.regions.map((g) => g.rule).join(', ')}`).toBeLessThanOrEqual(0.02);
  });
});
