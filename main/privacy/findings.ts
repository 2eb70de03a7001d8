// Secrets in text read from an image: Glance's own rules beside secretlint's (secretlintScan.ts).
// Each rule knows something a file scanner does not need to: a checkout form's card number is
// only a card number when its Luhn digit checks out; an IBAN when it is 1 mod 97; a value after
// `password:` is a secret whatever it looks like; and a key that OCR read with one wrong letter
// no longer matches its vendor's pattern but still looks like a key (20+ characters, mixed
// classes, high entropy).
import type { RedactCategory, RedactionKind } from '../../common/privacy.ts';
import { knownPublicId } from './publicIds.ts';
import { oneLetterOff as oneOff, seedPhrases } from './seedPhrase.ts';
import { keyShapeSpans } from './keyShapes.ts';

/** A secret found in a text: [start, end) offsets into it. */
export type Finding = { start: number; end: number; kind: RedactionKind; rule: string };

type Rule = { category: RedactCategory; kind: RedactionKind; rule: string; find(text: string): Iterable<[number, number]> };

function* matches(text: string, re: RegExp, group = 0, accept: (m: RegExpExecArray) => boolean = () => true): Iterable<[number, number]> {
  // (A group's own place, not the first place its text stands in the match: "/register Abc12345x
  // Abc12345x" repeats the password, and the second was boxed over the first.)
  // (The rules' patterns are literals made afresh on each call: a cache of their copies would never be hit.)
  const indexed = group === 0 || re.hasIndices ? re : new RegExp(re.source, `${re.flags}d`);
  for (const m of text.matchAll(indexed)) {
    if (!accept(m)) continue;
    const value = m[group];
    if (value === undefined || m.index === undefined) continue;
    const at = group === 0 ? m.index : (m.indices?.[group]?.[0] ?? m.index + m[0].indexOf(value));
    yield [at, at + value.length];
  }
}

/** Luhn's check digit: every card network's numbers pass it, most other digit runs do not. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** GTIN's check digit (EAN-13, UPC): weights 1 and 3 from the left, the sum with the check digit a multiple of 10. */
export function eanValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (digits.charCodeAt(i) - 48) * ((digits.length - i) % 2 === 0 ? 3 : 1);
  return sum % 10 === 0;
}

/** ISO 13616: move the first four characters to the end, letters to 10–35, the number mod 97 is 1. */
export function ibanValid(iban: string): boolean {
  const s = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const n = ch >= 'A' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = (n > 9 ? rest * 100 + n : rest * 10 + n) % 97;
  }
  return rest === 1;
}

/** Bits per character of a string's own distribution (Shannon). */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/**
 * A run that reads like a generated key: 20+ characters of key alphabet, letters and digits,
 * and either both cases or a long hex/base32 run, with high entropy. Identifiers (camelCase, no
 * digits), paths and prose do not pass.
 */
export function keyLike(run: string): boolean {
  if (run.length < 20) return false;
  // A name in capitals and its value, run together by the = between them ("_SYSTEMD_UNIT=nginx.service",
  // a log's field; its = read as a dash): the value is what may be a key, not the name's capitals
  // beside its small letters.
  const named = /^_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*[=:-](.+)$/.exec(run);
  if (named) return keyLike(named[1] as string);
  if (publicIdentifier(run) || codeName(run)) return false;
  const lower = /[a-z]/.test(run), upper = /[A-Z]/.test(run), digit = /\d/.test(run);
  if (!(lower || upper)) return false;
  if (!digit && !(lower && upper)) return false;
  const digits = run.replace(/\D/g, '').length;
  if ((run.match(/[/.]/g) ?? []).length > 3 && !/[+=]/.test(run)) return false; // a path or a host name
  const h = entropy(run);
  if (lower && upper && digits >= 2 && h >= 3.6) return true;
  // OCR reads a key's digits as letters (5 → S, 0 → O): a long run whose capitals fall anywhere,
  // not at word starts as in camelCase, is a key even with one digit left.
  const letters = run.replace(/[^A-Za-z]/g, '');
  const upperShare = letters.replace(/[^A-Z]/g, '').length / Math.max(1, letters.length);
  if (lower && upper && run.length >= 24 && h >= 4.2 && upperShare >= 0.25 && upperShare <= 0.75) return true;
  if (lower && upper) return false;
  // A name of dashed and dotted words and numbers (a wheel's file name, a package at its version:
  // "urllib3-2.31.0-py3-none-any.whl") is not a key, though its digits and letters mix.
  if (!upper && dottedName(run)) return false;
  // Hex or single-case base32/base36 keys (an AWS key id OCR read with a character too many).
  return (run.length >= 32 && h >= 3.3 && digits >= 4) || (h >= 3.5 && digits >= 3 && run.length - digits >= 3);
}

/**
 * A name in code: words in camelCase, a number at a word's end, dots between ("Binary.createFromBase64",
 * "Int32Array.fromHex", "crypto.subtle.importKey") — words of three and a half letters or more on average. A key's
 * capitals and digits fall anywhere, not only at a word's start and end.
 */
function codeName(run: string): boolean {
  const parts = run.split('.');
  if (!parts.every((p) => /^[A-Za-z][a-z]+\d{0,3}(?:[A-Z][a-z]+\d{0,3})*$/.test(p))) return false;
  const words = run.match(/[A-Za-z][a-z]+/g) ?? [];
  return words.join('').length >= words.length * 3.5;
}

/**
 * Lower-case words and numbers joined by dashes, dots and underscores, none long: a file or package
 * name with its version. A generated key of one case has long runs between its separators, if any.
 */
function dottedName(run: string): boolean {
  const parts = run.split(/[-._]+/).filter(Boolean);
  if (parts.length < 3 || parts.some((p) => p.length > 12)) return false;
  const plain = parts.filter((p) => /^[a-z]{2,}$|^\d+$/.test(p)).length;
  return plain * 2 >= parts.length;
}

/**
 * Identifiers that are not secrets, though they are long and random: git and sha256 hashes, trace
 * and span ids (hex of one case), UUIDs, subresource integrity strings, data URIs, Kubernetes pod
 * names. Left alone unless a label or a vendor rule names them secret.
 */
export function identifier(run: string): boolean {
  // (A column cut short ends in an ellipsis, or the dots OCR reads for one: "0x124fbacf20907b054f…".)
  // (OCR's quotes are curly as often as not.)
  const s = run.replace(/^["'“”‘’(=]+|(?:["'“”‘’),;]|…|\.{2,})+$/g, '');
  // A cloud resource's name (an AWS ARN, as OCR reads "arn": "am") or id (i-0…, vpc-, sg-, subnet-,
  // ami-), an SSH public key's base64 (its header names its type) or a known_hosts line's hashed
  // host: what anyone who sees the account or the server may know.
  if (ARN.test(s) || resourceId(s) || sshPublicKey(s) || /^\|1\|[A-Za-z0-9+/]{20,}={0,2}\|/.test(s)) return true;
  // A content address: a name made of the hash of what it names, shown wherever that thing is.
  if (contentAddress(s)) return true;
  // A systemd journal entry's cursor (journalctl -o verbose, --show-cursor): "s=<hex>;i=…;b=<boot
  // id>;m=…;t=…;x=…", a place in a log (as OCR reads it: "s5=", an f as £; from any of its fields on).
  // (Its i read as 1 or l, a 5 as %: "[s=defeBda3…;1=92257;b=…".)
  if (/^\[?(?:[sibmtx1lI|][5S]?=[0-9A-Za-z£%]+;\s?){2,}/.test(s)) return true;
  // A web address: where a document, a video, a product or a post is (webAddress).
  if (webAddress(s)) return true;
  // An age recipient (age1 and 58 characters of bech32; OCR may misread one or two): a public key.
  // Its secret key is AGE-SECRET-KEY-1…, in capitals, and is not one.
  // (As OCR reads it: "agel…", an é or a £ among the 58.)
  if (/^age[1lI|]\S{54,64}$/.test(s) && s.slice(4).replace(/[^a-z0-9]/g, '').length >= (s.length - 4) * 0.9) return true;
  // An IAM user's, role's or group's unique id (AIDA…, AROA…, AGPA…): shown to anyone in the account.
  if (/^(?:AIDA|AROA|AGPA|AIPA|ANPA|ANVA)[A-Z0-9]{16,17}$/.test(s)) return true;
  // A value its name says is a hash ("pod-template-hash=1qxhvcd75x"), and a Kubernetes object by its
  // kind and its lower-case name ("ReplicaSet/api-1lgxhvcd75x").
  // (And a query's parameter so named: "…/security/?sentry_key=<32 hex>", a vendor's public key.)
  const eq = /^(?:[^\s=?&]*[?&])?([A-Za-z][\w.-]*)[=:][^\s=:]+$/.exec(s);
  if (eq && (hashName(eq[1] as string) || publicKeyName(nameParts(eq[1] as string)))) return true;
  if (/^[A-Z][a-z]+(?:[A-Z][a-z]+)*\/[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/.test(s)) return true;
  // A URL or a path whose last part is a hash: a git blob's or a commit's address ("…/git/blobs/8b08…").
  const last = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[\w.-]+(?:\/[\w.@-]+)*\/([0-9A-Za-z£€]{30,})$/.exec(s);
  if (last && hexLike(last[1] as string)) return true;
  // A content address after its scheme (a container's "containerd://<sha256>", "docker://…"): a hash.
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/([^/\s]{30,})$/.exec(s);
  if (scheme && hexLike(scheme[1] as string)) return true;
  // A payments API's object ids: a type's prefix the vendor documents as an object's (a payment
  // intent's pi_, a charge's ch_, a customer's cus_, an event's evt_, a request's req_), shown on
  // every dashboard and receipt. Its keys' prefixes (sk_, rk_, whsec_) are not among them. (OCR reads
  // an f as £ now and then.)
  // (Its prefix as OCR reads it in capitals now and then: "Pi_3PFzt…".)
  const typed = /^([A-Za-z]{2,5}|cs_(?:live|test))_[A-Za-z0-9£€]{8,40}$/.exec(s);
  if (typed && /^(?:pi|ch|cus|evt|req|acct|in|ii|il|sub|si|prod|price|pm|seti|src|card|ba|txn|po|tr|py|pyr|dp|du|plink|prv|cs_(?:live|test))$/.test((typed[1] as string).toLowerCase())) return true;
  // A publishable key, meant for a page's source (Stripe's pk_live_/pk_test_, a map vendor's pk.eyJ…):
  // their secret keys are sk_ and sk.
  if (/^pk(?:_live_|_test_|\.eyJ)[\w.-]{16,}$/.test(s)) return true;
  // A block explorer's addresses: bech32 (bc1q…, its alphabet has no 1, b, i or o after the 1).
  // (OCR may read a character or two as one bech32 has not.)
  if (/^(?:bc|tb|ltc)1[a-z0-9]{25,87}$/.test(s) && (s.slice(s.indexOf('1') + 1).match(/[bio1]/g) ?? []).length <= 2) return true;
  // An advisory's id (GHSA-xxxx-xxxx-xxxx, CVE-2024-12345), in a path or alone.
  // (A group read with a character too many now and then: "GHSA-vE7Tv-jvp7-pSgp".)
  if (/(?:^|\/)(?:GHSA(?:-[a-z0-9]{4,5}){3}|CVE-\d{4}-\d{4,7})$/i.test(s)) return true;
  // A name for it first: trace_id=, span_id:, commit, sha256:, digest=.
  // OCR reads = as - now and then: after a name, a dash is its equals sign.
  // (Not a session's id, a cookie's, a token's or a key's: PHPSESSID=<hex>, JSESSIONID=, csrf_token_id=.)
  const bare = s.replace(/^[\w.]*(?:trace|span|request|commit|sha[0-9lIS]{0,3}|digest|hash|etag|id)[\w.]*[=:-]/i, '');
  if (hexLike(bare) && !/sess|cookie|token|secret|auth|key|pass|csrf|xsrf/i.test(s.slice(0, s.length - bare.length))) return true;
  // A name that ends in a whole hash (a CI cache key "node-cache-Linux-x64-npm-<sha256>", a
  // build's "app-<sha1>"): dashed words, then 32 or more hex characters of one case (as OCR reads them: B for 8).
  // (A file's path before it too: an error tracker's "api/orders.ts · <event id>", its dot read as a dash.)
  // (Its hex as OCR reads it: hexLike decides, nine in ten characters hex.)
  const tail = /^[A-Za-z][\w./]*(?:-[\w./]+)*-([0-9A-Za-z£€%]{30,})$/.exec(s);
  // (A name that says secret is not such a name: Mailgun's "key-<32 hex>".)
  if (tail && hexLike(tail[1] as string) && !nameParts(s.slice(0, -(tail[1] as string).length)).some(secretPart)) return true;
  if (/^(?:sha[0-9lIS]{1,3}|md5|h[1lI|][1lI]?)[-:][A-Za-z0-9+/]{16,}={0,2}$/.test(s)) return true;
  // A page's hash or nonce in a Content-Security-Policy or an integrity attribute ('sha256-…',
  // 'nonce-…'), also as OCR reads its base64 with a stray sign in it (")", "]"): nine in ten base64.
  const source = /^(?:sha(?:1|256|384|512|2S6|S12)|nonce)-(\S{16,})$/.exec(s);
  if (source && (source[1] as string).replace(/[^A-Za-z0-9+/=_-]/g, '').length >= (source[1] as string).length * 0.9) return true;
  // A digest named by its algorithm, however short it is shown ("sha256:4925f0202304", a registry's
  // column) and however OCR read its s ("£ha256:", "5ha256:"): hex, digits alone or not.
  const digest = /^[sS5£$]ha(?:1|224|256|384|512|2S6|2S1|S12)[-:]([0-9a-zA-Z£€]{7,})$/.exec(s);
  if (digest && hexShare(digest[1] as string) >= 0.9) return true;
  if (/^(?:url\()?["']?data:[\w/+.-]+(?:;[\w=-]+)*;base\w\w[,.]/i.test(s)) return true;
  // pod names: <workload>-<replicaset hash>-<5 chars> (OCR may read a letter of the hash in capitals,
  // and a digit as a capital: "api-q94vbgztIg-BevhE" for "api-q94vbgzt9g-8cvhf")
  if (/^(?:[\w.-]*[=:])?[a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z0-9]{6,12}-[a-z0-9]{4,7}$/i.test(s) && !/[A-Z].*[A-Z].*[A-Z]/.test(asDigits(s.split('-').slice(-2).join('')))) return true;
  return false;
}

/**
 * An identifier (identifier) or a public one of a well-known family known by its structure and
 * checksum (knownPublicId: a ULID, a KSUID, a coin's address, an npub, a MAC address…). Only for
 * the rules that judge a run by its shape alone: what a name or a vendor's prefix says secret stays so.
 */
export function publicIdentifier(run: string): boolean {
  return identifier(run) || knownPublicId(run);
}

/**
 * A content address — a name made of the hash of the bytes it names, public wherever the thing is
 * shared: an IPFS CID (v1 in base32, "bafy…", "bafk…", as OCR reads it "baty…" with a capital or two
 * for its digits; v0 in base58, "Qm" and 44 more), what follows ipfs:// or /ipfs/ (a CID or a path
 * under one), a Nix or Guix store path (/nix/store/<hash>-name), and an HTTP ETag's weak validator
 * (W/"…"). Each is known by its own form, not by words around it.
 */
export function contentAddress(s: string): boolean {
  if (/^(?:ip[fn]s:\/\/|\/ip[fn]s\/)\S/i.test(s) || /^\/(?:nix|gnu)\/store\/\S/.test(s) || /^W\/["“”]\S/.test(s)) return true;
  // A torrent's info hash in a magnet link ("magnet:?xt=urn:btih:<hash>&dn=…", its start read as "-:" now and then).
  if (/^\S{0,16}urn:bt[im]h:[0-9A-Za-z£]{32}/i.test(s)) return true;
  // (CIDv1: "b" for base32, then the version and codec bytes — "afy" dag-pb, "afk" raw — and the hash's "bei"/"rei".)
  const v1 = /^ba[ft£][ykz][a-z2-7]{2}(\S{12,64})$/.exec(s);
  if (v1) {
    // (OCR reads a few of its letters and digits as capitals: "…wrSddbedchTstxxsLyBsvRrSS…".)
    const rest = v1[1] as string;
    return rest.replace(/[^A-Za-z0-9]/g, '').length >= rest.length * 0.9 && rest.replace(/[^a-z0-9]/g, '').length >= rest.length * 0.7;
  }
  // (CIDv0: base58 has no 0, O, I or l; OCR reads an m as n, and one or two characters wrong.)
  if (/^Q[mn]\S{42,46}$/.test(s)) return s.slice(2).replace(/[^1-9A-HJ-NP-Za-km-z]/g, '').length >= (s.length - 2) * 0.9;
  return builtFile(s);
}

/**
 * A file a bundler wrote, named for a short hash of its content (vite's "dist/assets/index-c4eSn2i.css",
 * webpack's "static/js/main.8f3a2b1c.chunk.js"), as a build prints it and a page loads it: a path of
 * one folder or more, then a name, a dash or a dot, 6–12 letters and digits and the file's kind.
 * (OCR reads the dash twice, "index--c4eSm2i", and takes the kind for a word of its own, "vendor-5mJrFpe9." "js".)
 * A key is longer than such a hash, and has no file's name before it.
 */
function builtFile(s: string): boolean {
  return /^(?:[\w.@~-]*\/)+[A-Za-z][\w.~-]*?[-.~]{1,2}[A-Za-z0-9_][A-Za-z0-9_-]{5,11}(?:\.chunk)?\.(?:[A-Za-z][A-Za-z0-9]{0,5})?$/.test(s);
}

/**
 * A web address — a page's, a document's, a video's, a product's, a post's — with the ids in its path
 * and its query that say where the thing is and how the visitor came (an ad click's gclid, a share's
 * si=): what a browser's history and address bar show to anyone who has the link. Not one that carries
 * a credential: a user and password before its host, a query or fragment parameter named for one
 * (token=, key=, sig=, code=, X-Amz-Signature=, #access_token=), or a path or host through a secret's
 * place — a password reset's, a sign-in link's, an invitation's, a webhook's, a bot's
 * (/reset-password/<token>, hooks.slack.com/services/…, /api/webhooks/<id>/<token>) — or a fragment
 * that is a key rather than an anchor (a shared secret's link, …/s#<key>). Judged by its
 * own form, as OCR reads it: the scheme may be garbled ("https/", "ttps:/f") or absent, but the host
 * has a dot and a word after it, and the rest has no space.
 */
export function webAddress(s: string): boolean {
  const m = /^(?:[a-z]{0,2}t{1,2}ps?[:;]?\/{1,2}[lf|I1]?)?((?:[a-z0-9-]+\.)+[a-z]{2,12})(?::\d{2,5})?(\/[^\s?#]*)(\?[^\s#]*)?(#\S*)?$/i.exec(s);
  if (!m) return false;
  const [, host, path, query, fragment] = m as unknown as [string, string, string, string | undefined, string | undefined];
  // (Without a scheme, a host that reads as one: www., or a name and a domain of letters.)
  if (!/^[a-z]{0,2}t{1,2}ps?[:;]?\//i.test(s) && !/^www\./i.test(host) && !/\.(?:com|org|net|io|dev|app|so|co|ai|me|ly|gl|be|ms|gg|tv|[a-z]{2})$/i.test(host)) return false;
  if (secretHost(host) || secretPlace(path) || /\/bot\d{6,}:/.test(path)) return false;
  // (A fragment that is a key, not an anchor: a shared secret's link, share.example.com/s#<key>.)
  if (fragment && !fragment.includes('=') && fragment.split(/[/:]/).some((piece) => piece.length >= 16 && /\d/.test(piece) && /[A-Za-z]/.test(piece))) return false;
  // (Any word of its query and fragment, not only a parameter's name as written: OCR reads = as - and & as a.)
  return !nameParts(`${query ?? ''}&${fragment ?? ''}`).some((q) => secretPart(q) || CAPABILITY_PARAM.has(q));
}
/** Whether a host has a label that is a secret's place (hooks.slack.com, login.example.com). */
function secretHost(host: string): boolean {
  return host.split('.').some((label) => CAPABILITY_PLACE.test(label));
}

/**
 * Whether a link's path, or one segment of it, passes through a secret's place: a word of it is one
 * (reset, invite, webhooks), names a secret (password, token) or a credential's parameter (code,
 * sig — where OCR read a ? as a 7, "reset7token=…", the query is in the path). Its words are its runs
 * of letters, a camelCase run in its words (not an id's letters, which are no word: "dfIZPJfEZxSMCblz").
 * Or an account's number and a generated token after it (an inbound webhook's /rest/1/<token>/).
 * webAddress and the link-token rule judge by this one test, so a link is public or has its tokens hidden.
 */
function secretPlace(path: string): boolean {
  const words = path.split(/[^A-Za-z]+/).flatMap((run) => (/^(?:[a-z]+|[A-Z]?[a-z]+(?:[A-Z][a-z]+)*)$/.test(run) ? nameParts(run) : [run.toLowerCase()]));
  return words.some((p) => CAPABILITY_PLACE.test(p) || secretPart(p) || CAPABILITY_PARAM.has(p)) || [...path.matchAll(/\/\d{1,12}\/([^/?#]+)/g)].some((m) => pathToken(m[1] as string));
}

/**
 * Whether a segment of a path reads as a generated token, not a word, a slug or a hash: 12–64 letters
 * and digits (a dash or an underscore inside), four letters or more and two digits or more, not hex
 * alone (a commit, a digest), with a spread of characters.
 */
function pathToken(segment: string): boolean {
  if (!/^[A-Za-z0-9_-]{12,64}$/.test(segment) || /^[0-9a-f-]+$/i.test(segment)) return false;
  if ((segment.match(/\d/g) ?? []).length < 2 || (segment.match(/[A-Za-z]/g) ?? []).length < 4) return false;
  // (Not words joined by dashes, a slug: "how-to-rotate-keys-2024".)
  if (segment.split(/[-_]/).filter((w) => /^[a-z]{3,}$/i.test(w)).length >= 2) return false;
  return entropy(segment) >= 3.2;
}

/** A place in an address that holds a secret in what follows: a reset, a sign-in link, an invitation, a webhook, a bot. */
const CAPABILITY_PLACE = /^(?:reset|recover|recovery|magic|login|signin|sign|verify|verification|confirm|confirmation|activate|activation|invite|invites|invitation|join|hook|hooks|webhook|webhooks|unsubscribe|otp|mfa|2fa|sso|saml|session|sessions|ticket|callback|oauth|oauth2|authorize)$/i;
/** A query parameter's name part that says its value is a credential or a one-time code. */
const CAPABILITY_PARAM = new Set(['code', 'sid', 'session', 'sessionid', 'jwt', 'otp', 'ticket', 'nonce', 'state', 'hmac', 'sig', 'signed', 'signature', 'credential', 'access', 'refresh', 'amz', 'goog']);

/** An Amazon Resource Name: arn:partition:service:… ("am:aws:…" as OCR reads an rn in small type). */
const ARN = /^a(?:rn|m|rm):aws(?:-[a-z]+)*:[a-z0-9-]*:/;

/**
 * An AWS resource's id: its type's prefix and 8 or 17 hex digits as OCR reads them (@ for 0, £ for
 * f), after its type in an ARN's path ("instance/i-0…") or alone.
 */
function resourceId(s: string): boolean {
  const m = /^(?:[\w-]+\/)?(?:[i1l|]|ami|vpc|sg|sgr|subnet|vol|snap|eni|igw|eigw|nat|rtb|acl|eipalloc|eipassoc|lt|tgw|tgw-attach|tgw-rtb|pcx|vpce|dopt|fs|fsap|cgw|vgw|vpn|pl|ipam|aki|ari)-(\S{8,9}|\S{16,19})$/.exec(s);
  return !!m && hexShare((m[1] as string).replace(/@/g, '0')) >= 0.85;
}

/** The share of a run's characters that are hex digits, as OCR reads them (hexAsRead). */
export function hexShare(v: string): number {
  return hexAsRead(v).toLowerCase().replace(/[^0-9a-f]/g, '').length / Math.max(1, v.length);
}

/**
 * An SSH public key's base64 (authorized_keys, known_hosts, a .pub file): it starts with its type's
 * name, length first — "AAAAC3NzaC1lZDI1NTE5" is ssh-ed25519, "AAAAB3NzaC1yc2E" ssh-rsa,
 * "AAAAE2VjZHNh" ecdsa, "AAAAGnNrLXNzaC1" and "AAAAInNrLWVjZHNh" a security key's — as OCR reads it
 * (an A lost or read as R, 3 as 8, z as Z). A private key's file starts otherwise (b3BlbnNzaC1rZXkt).
 */
export function sshPublicKey(s: string): boolean {
  return s.length >= 24 && /^[AR]{3,5}(?:[BC8][38]N[zZ2]a[CG]|E[2Z][VY][jJ]ZHN|[GI][nN][NM]r)/.test(s);
}

/**
 * Hex of one case, as OCR reads it: a git or sha256 hash, a trace or span id, a UUID (its dashes
 * aside). Nine in ten characters are hex digits once confusables are read as digits (B for 8, l for 1).
 */
function hexLike(v: string): boolean {
  const dashes = (v.match(/-/g) ?? []).length;
  const t = v.replace(/-/g, '');
  if (t.length < 7 || (dashes > 0 && (dashes > 5 || t.length < 20))) return false;
  const m = (t.length >= 16 ? hexAsRead(t) : asDigits(t)).toLowerCase();
  const hex = m.replace(/[^0-9a-f]/g, '').length;
  if (hex < t.length * 0.9 || !/\d/.test(m) || !/[a-f]/.test(m)) return false;
  // A hash is hex from end to end: a part before a dot that is not is a key's id before its hex
  // secret (an Airtable token, "patXXXXXXXXXXXXXX.<64 hex>", which passed nine in ten as a whole).
  if (t.split('.').some((p) => p.length >= 8 && hexAsRead(p).toLowerCase().replace(/[^0-9a-f]/g, '').length < p.length * 0.75)) return false;
  // OCR's letters for hex digits are few in a hash; a password of letters and digits has many.
  if ((t.match(/[£€sgqz]/g) ?? []).length > Math.max(1, t.length * 0.15)) return false;
  // One case: a key in base64 has both in plenty; OCR's odd capital in a hash is few.
  const upper = t.replace(/[^A-Z]/g, '').length, lower = t.replace(/[^a-z]/g, '').length;
  return Math.min(upper, lower) <= Math.max(3, t.length * 0.2);
}

/**
 * Hex as OCR reads it: the confusable digits (asDigits), and the letters and signs it puts for a hex
 * digit in small or coloured type — £ for f, € for e, s for 5, g and q for 9, z for 2 (taken only
 * in a run as long as a hash: in a short one they are as likely a word's or a key's own letters).
 */
function hexAsRead(s: string): string {
  return asDigits(s).replace(/[£€sgqz]/g, (c) => HEX_READ[c] ?? c);
}
const HEX_READ: Record<string, string> = { '£': 'f', '€': 'e', s: '5', g: '9', q: '9', z: '2' };

/** What comes before a data URI's payload or an integrity string's hash (also when it wraps onto the next line). */
// OCR garbles the words around a payload: "base64," read as "basebfd,", "data:" lost and only the
// MIME type left ("image/png;"), go.sum's "h1:" read as "hl:".
const PAYLOAD_BEFORE = /(?:data:[^\s]*|base\w{2,3}[,.;]|\b(?:image|application|font)\/[\w.+-]+;|sha[0-9lIS]{2,3}[-:]|(?<![\w-])h[1lI|][1lI]?:|integrity["']?\s*[:=]\s*["']?)[^\n"'()]*$/i;

/**
 * A lock file's entry up to its hash: a module at a version ("golang.org/x/sync v1.19.2/go.mod "),
 * then the hash, which OCR may read without its "h1:" or cut in pieces — what follows a version on
 * such a line is the module's checksum, not a key.
 */
const LOCK_ENTRY = /(?:^|\n)[^\n]*?[\w.-]+\/[\w./-]+\s+v\d+\.\d+\.\d+(?:[-+][\w.]+)?(?:\/go\.mod)?\s+(?:\S{1,3}\s+)?:?(?:[A-Za-z0-9+/]{4,}\s+){0,3}$/;

/** A line that names what follows as a hash, an id or a payload (OCR's scraps of it are not keys). */
// (And a network card's address named so: ip's "lladdr" as OCR reads it, "1laddr", "link/ether", ifconfig's "HWaddr".)
export const NAMED_IDENTIFIER = /integrity|sha[0-9lIS]{2,3}[-:]|(?<![\w-])h[1lI|][1lI]?:|data:|base\w{2,3}[,.;]|\b(?:image|application|font)\/[\w.+-]+;|trace|span_?id|commit|digest|checksum|hash\b|uuid|request_?id|[1lLI|]laddr|link\/ether|hwaddr|\bbssid\b|mac[ -]?addr/i;

/**
 * A value that stands for one in angle brackets, words inside: kubectl's "<set to the key 'password'
 * in secret 'api-db'>", "<none>", "<your token here>" — what a tool shows in the secret's place.
 */
const PLACEHOLDER = /^<[a-z][a-z ,'‘’-]*(?:\s|>)/i;

/** Words that follow a label in a sentence or a type annotation, never as a secret. */
const NOT_VALUES = new Set(['must', 'should', 'is', 'are', 'was', 'be', 'the', 'a', 'an', 'see', 'never', 'not', 'expires', 'required', 'optional', 'string', 'number', 'boolean', 'null', 'undefined', 'none', 'true', 'false', 'hidden', 'empty', 'set', 'unset', 'enter', 'use', 'your', 'this', 'that', 'at', 'in', 'of', 'to', 'for', 'from', 'and', 'or', 'with', 'will', 'can', 'may', 'str', 'int', 'bool', 'any', 'unknown', 'void', 'env', 'process', 'config', 'settings', 'options',
  // A state shown in the value's place ("App token: public", a store's depot page; "API key: revoked").
  'public', 'enabled', 'disabled', 'active', 'inactive', 'revoked', 'expired', 'valid', 'invalid', 'yes', 'no', 'on', 'off', 'n/a', 'redacted', 'masked', 'missing', 'configured']);

/**
 * Whether what follows a secret's label is a value rather than words about it: a setting about
 * the secret (`passwordMinLength`, `tokenTtlSeconds`) is not, nor a word that starts a sentence
 * ("Password: must be…"), nor a small number; anything else is, whatever it looks like.
 */
export function labelValue(label: string, value: string, after: string): boolean {
  if (/(?:min|max|length|len|ttl|timeout|seconds|secs|minutes|hours|days|count|expir|policy|hint|strength|rotation|field|input|type|reset|placeholder|url|path|file|header|name)/i.test(label.replace(/^(?:.*?)(?:pass(?:word|wd|phrase)?|pwd|secret|token|key|credentials?|bearer)/i, ''))) return false;
  const v = value.replace(/[.,;:)]+$/, '');
  // Stars or dots where an app hides what was typed ("Password: ********") are no value.
  if (/^[*•●·]+$/.test(v)) return false;
  if (NOT_VALUES.has(v.toLowerCase())) return false;
  if (/^\d{1,3}$/.test(v)) return false;
  // A lower-case word followed by more words on its line is the start of a sentence.
  // ("Token: expires after 30 days", OCR's "expres" too: a word after it on its line.)
  if (/^[a-z]+$/.test(v) && /^[ \t]+[a-z]{2,}/i.test(after)) return false;
  if (/^[a-z][a-z.]*\(/i.test(v)) return false; // a call: getPassword(), os.environ.get(
  return true;
}

/**
 * The parts of a name as a program or a person writes it: snake_case, kebab-case, camelCase,
 * SCREAMING_CASE, dotted or spaced (OCR reads an underscore as a space), lower case.
 */
function nameParts(name: string): string[] {
  return name
    .replace(/(?<=[a-z0-9])(?=[A-Z])/g, ' ')
    .split(/[^A-Za-z0-9]+/)
    .map((p) => p.toLowerCase())
    .filter(Boolean)
    .flatMap(compoundParts);
}

/**
 * A compound written as one word, as a command or a config names a secret ("preauthkeys",
 * "authkey", "masterkey", "apitoken", "adminpassword"): a word that says who or what the secret is
 * for, then key, token, secret or password. Only those first words: "monkey", "hotkey" and "turkey"
 * stay one word.
 */
function compoundParts(p: string): string[] {
  const m = /^([a-z]{2,}?)(keys?|tokens?|secrets?|passwords?|passwd|passphrase)$/.exec(p);
  if (!m || !COMPOUND_HEADS.has(m[1] as string)) return [p];
  // ("preauth": before and "auth", a part that says secret of its own.)
  return [...(m[1] === 'preauth' ? ['pre', 'auth'] : [m[1] as string]), m[2] as string];
}
const COMPOUND_HEADS = new Set(['api', 'app', 'auth', 'preauth', 'access', 'master', 'private', 'priv', 'secret', 'client', 'deploy', 'runner', 'bot', 'session', 'admin', 'root', 'service', 'signing', 'encryption', 'enc', 'license', 'licence', 'product', 'join', 'enroll', 'enrollment', 'registration', 'bootstrap', 'cluster', 'node', 'agent', 'device', 'shared', 'host', 'user', 'refresh', 'bearer', 'unseal', 'recovery', 'rcon', 'wifi', 'wlan', 'db', 'database', 'smtp', 'mail', 'ftp', 'vpn']);

/**
 * Parts of a name that say what follows is secret; the longer ones as OCR reads them too (one letter
 * off). The words of public keyword lists (detect-secrets' KeywordDetector, gitleaks' generic-api-key:
 * password, passwd, pwd, secret, token, api key, auth, credential, creds, private key, priv key) and an
 * HTTP request's Authorization header.
 */
// (And nouns that name a credential by what it opens: a game server's remote console password
// ("rcon"), a bearer credential of LND and other services (a macaroon), a passcode, a pre-shared key,
// a vault's unseal key or share.)
const SECRET_PARTS = new Set(['token', 'tokens', 'secret', 'secrets', 'password', 'passwords', 'passwd', 'passwort', 'passphrase', 'pass', 'pwd', 'pw', 'credential', 'credentials', 'creds', 'apikey', 'auth', 'authtoken', 'private', 'privatekey', 'signature', 'key', 'keys', 'authorization', 'privkey', 'rcon', 'macaroon', 'macaroons', 'passcode', 'psk', 'unseal']);
const SECRET_PARTS_LONG = ['secret', 'password', 'passwd', 'passphrase', 'credential', 'credentials', 'apikey', 'signature', 'tokens', 'macaroon', 'passcode'];
/**
 * Parts that say it is a public identifier or a setting about a secret, not the secret: a hash, an
 * id, an address, a fingerprint, a cache key; a length, a time to live, a URL.
 */
const NOT_SECRET_PARTS = new Set(['commit', 'sha', 'sha1', 'sha256', 'sha512', 'digest', 'checksum', 'integrity', 'uid', 'uuid', 'id', 'ids', 'sid', 'hash', 'hashes', 'hashed', 'fingerprint', 'fpr', 'tx', 'txn', 'txid', 'address', 'addr', 'public', 'pub', 'publishable', 'cache', 'etag', 'trace', 'span', 'request', 'build', 'version', 'rev', 'revision', 'ref', 'primary', 'foreign', 'sort', 'partition', 'object', 'idempotency', 'nonce', 'block', 'hint', 'length', 'len', 'min', 'max', 'ttl', 'expiry', 'expires', 'url', 'uri', 'path', 'file', 'name', 'type', 'field', 'header', 'placeholder', 'policy', 'count', 'timeout', 'rotation', 'strength', 'reset']);
/** Words beside "key" that make it no secret's name: an exception, a keyboard's key, a map's key, a key pair. */
const NOT_KEY_QUALIFIERS = new Set(['error', 'errors', 'exception', 'event', 'events', 'code', 'codes', 'press', 'down', 'up', 'stroke', 'board', 'binding', 'bindings', 'map', 'value', 'values', 'pair', 'pairs', 'frame', 'frames', 'chain', 'ring', 'word', 'words', 'note', 'notes', 'column', 'columns', 'field', 'fields']);
/** Words around a name in a sentence that do not qualify a "key" ("the key", "your key"). */
const FILLER = new Set(['the', 'a', 'an', 'and', 'or', 'my', 'your', 'our', 'their', 'this', 'that', 'is', 'here', 'new', 'old', 'of', 'for', 'to', 'with', 'its', 'it']);

function secretPart(p: string): boolean {
  return SECRET_PARTS.has(p) || (p.length >= 6 && SECRET_PARTS_LONG.some((s) => oneOff(p, s)));
}

/**
 * Whether a name says its value is secret: a part that says so (token, secret, password, auth,
 * credential, private, signature; "key" with a word that qualifies it — api key, app key, access
 * key, SECRET_KEY_BASE, not "the key" alone), and no part that says it is a public identifier or a
 * setting (commit, sha, digest, id, uid, hash, fingerprint, address, cache, length, url…).
 */
export function secretName(name: string): boolean {
  const parts = nameParts(name).filter((p) => !/^\d+$/.test(p));
  if (!parts.length || parts.length > 6) return false;
  if (parts.some((p) => NOT_SECRET_PARTS.has(p)) || hashName(name) || publicKeyName(parts)) return false;
  return parts.some((p, i) => {
    // (A share of a key is the key's secret: Shamir's "key share", a vault's "unseal share".)
    if ((p === 'key' || p === 'keys' || p === 'unseal') && /^shares?$/.test(parts[i + 1] ?? '')) return true;
    if (!secretPart(p)) return false;
    if (p !== 'key' && p !== 'keys') return true;
    // "key" needs a word before it that qualifies it (api, app, access, mailgun, SECRET…): its own
    // name's parts. A word, not a scrap of hex ("…:909345082382 key/eedd2ce7-99af", a KMS key's ARN),
    // and not one that makes it something else (a key code, a key press, a key pair's name); nothing
    // after it qualifies it ("KeyError: 'currency'").
    const q = parts.slice(0, i).filter((p) => !FILLER.has(p)).at(-1);
    return q !== undefined && q !== 'key' && q !== 'keys' && /^[a-z]{2,}$/.test(q) && !NOT_KEY_QUALIFIERS.has(q);
  });
}

/**
 * A vendor's own name for a key it documents as public: Sentry's "sentry_key" (its DSN's public key,
 * in a CSP report-uri or a loader script's URL; its secret key was "sentry_secret"). The name's last
 * parts, as OCR reads its underscore (a space, or nothing).
 */
function publicKeyName(parts: readonly string[]): boolean {
  return /(?:^| )sentry ?key$/.test(parts.join(' '));
}

/**
 * Whether a value reads as generated or chosen, not a word, a number, a URL, a path, a date or a
 * version: 8–200 characters, letters and digits; 16 or more with a spread of characters (a hex key,
 * a UUID-shaped password, a base64 key), or fewer with capitals or symbols among them (a password).
 * Hashes and UUIDs pass: whether they are secret is the name's to say.
 */
export function randomValue(value: string): boolean {
  // (Brackets round it are a list's or a set's: PowerShell's "{CredentialGuard, HypervisorEnforcedCodeIntegrity}".)
  const v = value.replace(/^["'`({[]+|["'`),;}\]]+$/g, '');
  if (v.length < 8 || v.length > 200 || /\s/.test(v)) return false;
  if (!/[A-Za-z]/.test(v)) return false;
  // Without a digit: both cases with a symbol among them (HjXx%MALkTZY), not Title-Case words joined.
  if (!/\d/.test(v) && !(/[a-z]/.test(v) && /[A-Z]/.test(v) && /[^A-Za-z0-9]/.test(v) && !/^(?:[A-Z][a-z]*[-_.]?)+$/.test(v))) return false;
  if (/:\/\/|^[\w.+-]+@[\w-]+\.[\w.-]+$|^\d{1,4}[./:-]\d{1,2}(?:[./:-]|$)|^v?\d+\.\d+/.test(v)) return false;
  if ((v.match(/[/.]/g) ?? []).length > 2 && !/[+=]/.test(v)) return false; // a path or a host name
  if (v.replace(/[A-Za-z0-9+/=_.~!@#$%^&*?£€-]/g, '').length > v.length * 0.1 || v.includes(':')) return false;
  if (!/[A-Z]/.test(v) && dottedName(v)) return false;
  if (v.length >= 16) return entropy(v) >= 3;
  const classes = Number(/[A-Z]/.test(v)) + Number(/[^A-Za-z0-9]/.test(v)) + Number(/[a-z]/.test(v));
  // camelCase with digits (getUser2ById): every capital starts a lower-case run.
  if (!/[^A-Za-z0-9]/.test(v) && /^[a-z]/.test(v) && !/[A-Z](?![a-z])/.test(v)) return false;
  return classes >= 2 && entropy(v) >= 2.8;
}

/**
 * Whether the words before a value on its line name it secret: its last word says so ("password",
 * "api_key:", "TWILIO AUTH TOKEN"), with up to two words before it that qualify it ("app key:"), or
 * the last word continues a SCREAMING name OCR split at its underscore ("SECRET_KEY BASE").
 */
export function namedBefore(before: string): boolean {
  // (Not a word of a name whose value came before, a comma after it: in "Signature: good, key 3AA5…"
  // the run after "key" is named by "key" alone.)
  // (…also where a space stands before the colon, as PowerShell's lists set it: "Name : a, b".)
  // A config's member named "key" alone, first on its line ("key: 4ef8…" under a service's widget,
  // '"key": "cnqw…",' in a device list): the name of a credential there, as a key a word qualifies is.
  if (/^\s*(?:-\s+)?["'“”‘’]?key["'“”‘’]?\s*[:=]\s*["'“”‘’]?$/i.test(before)) return true;
  before = before.slice(-200).replace(/^.*\S ?[:=]\s+[^\s,;:=][^,;:=]*[,;]\s+(?=\S)/, '');
  const words = before.split(/\s+/).map((w) => w.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '')).filter((w) => w && !/^\d+$/.test(w));
  const last = words.at(-1);
  if (last === undefined) return false;
  if (nameParts(last).some(secretPart)) return secretName(last) || secretName(words.slice(-3).join(' '));
  return /^[A-Z][A-Z0-9_]*$/.test(last) && /^[A-Z][A-Z0-9_]*$/.test(words.at(-2) ?? '') && secretName(words.slice(-2).join('_'));
}

/** Parts of a name that say its value is a public identifier. */
const ID_PARTS = new Set(['commit', 'sha', 'sha1', 'sha256', 'sha512', 'digest', 'checksum', 'integrity', 'uid', 'uuid', 'id', 'hash', 'fingerprint', 'fpr', 'tx', 'txn', 'txid', 'address', 'addr', 'etag', 'trace', 'span', 'request', 'block', 'ref', 'rev', 'revision', 'build', 'nonce']);

/**
 * Whether a name says secret and ends in the word that says so ("Auth token", "API key", "Client
 * secret") — a label of a secret value, not a name that mentions one ("api auth.verify", an
 * operation; "password_reset_at").
 */
export function secretLabel(name: string): boolean {
  const last = nameParts(name).at(-1);
  return last !== undefined && secretPart(last) && secretName(name);
}

/**
 * Whether a name (a word before a value: "msgid", "commit", "Key ID") says its value is an identifier
 * and nothing in it says secret. gettext's msgid names a message by an id.
 */
export function identifierName(name: string): boolean {
  const parts = nameParts(name);
  return parts.length > 0 && parts.some((p) => ID_PARTS.has(p) || p === 'msgid') && !parts.some((p) => secretPart(p) || p === 'session' || p === 'cookie');
}

/**
 * Whether the words right before a value on its line name it a public identifier — "Bitcoin address:",
 * "commit", "request id =" — and nothing in that name says secret (a session id, a secret's id are
 * not public). The counterpart of namedBefore.
 */
export function namedIdentifierBefore(before: string): boolean {
  if (!/[:=]\s*["'“”‘’]?$/.test(before)) return false;
  const last = before.replace(/["'“”‘’]$/, '').trim().split(/\s+/).slice(-2).join(' ');
  const parts = nameParts(last);
  return parts.some((p) => ID_PARTS.has(p)) && !parts.some((p) => secretPart(p) || p === 'session' || p === 'cookie');
}

/**
 * Parts of a name that say its value is public by design or data, not a credential: a publishable or
 * site key (a page's source carries it), a key id, a file's or an image's bytes ("content", "data").
 */
const PUBLIC_PARTS = new Set(['public', 'pub', 'publishable', 'sitekey', 'kid', 'content', 'data', 'body', 'blob', 'image', 'img', 'payload', 'bytes', 'attachment', 'thumbnail', 'icon', 'logo', 'avatar', 'photo', 'picture', 'font', 'cert', 'certificate']);
/** A JSON Web Key's members that are its public half (RFC 7517/7518): the private ones are d, p, q, dp, dq, qi, k. */
// (As OCR reads them: "X5t", "x5" for x5t, "x5t45256" for x5t#S256.)
// (…and "XS" for x5t, its 5 read as S.)
const JWK_PUBLIC = /^(?:n|e|x|y|crv|kid|kty|alg|use|x[5S][\w#]*)$/i;

/**
 * The name a value is given on the screen — a JSON member's ("kid": "…"), an HTML attribute's
 * (integrity="sha384-…"), a setting's (content: …) — also when the value wraps onto the lines below
 * it: a quoted value runs on to its closing quote. Undefined when it has none.
 */
export function valueName(text: string, at: number): string | undefined {
  // (A value inside the call that makes it — a document viewer's "Binary.createFromBase64('…", the
  // shell's "BinData(0, '…", "bytes.fromhex('…" — is named by the name before the call; as OCR reads it,
  // a space after the dot and the bracket twice.)
  const before = uncall(text.slice(Math.max(0, at - 4000), at));
  // (With the word before it on its line: "session id:" is a session's, not an id's.)
  // (The names are sought in the last 160 characters before the value or its quote: a $-anchored
  // pattern over a long run of base64 would try each of its characters as a name's start.)
  // (OCR reads a quote as * now and then: "content: *S8rT…".)
  const direct = /(?:([A-Za-z_][\w-]*) )?([A-Za-z_][\w#./-]*)["“”'‘’*]?[ \t]*[:=][ \t]*["“”'‘’*]?$/.exec(before.slice(-160));
  if (direct) return direct[1] ? `${direct[1]} ${direct[2]}` : direct[2];
  // The quote before it, when nothing but the value's own wrapped lines lie between (no member's
  // name, no brace): the quote that opened it, or a quoted name whose value OCR read without its quote.
  const q = Math.max(...[...'"“”\'‘’*'].map((c) => before.lastIndexOf(c)));
  if (q < 0) return undefined;
  let value = before.slice(q + 1);
  const head = uncall(before.slice(Math.max(0, q - 160), q));
  const bare = /^\s*[:=]\s*/.exec(value);
  if (bare) {
    value = value.slice(bare[0].length);
    const name = /["“”'‘’]([A-Za-z_][\w#.-]*)$/.exec(head);
    return name && !/[{}]|\S[:=]\s/.test(value) ? name[1] : undefined;
  }
  if (/[{}]|\S[:=]\s/.test(value)) return undefined;
  return /([A-Za-z_][\w#.-]*)["“”'‘’]?\s*[:=]\s*$/.exec(head)?.[1];
}

/** `before` without the call it ends in, opened up to its value's quote ("Binary.createFromBase64('", "BinData(0, "). */
function uncall(before: string): string {
  const call = /(?:[A-Za-z_]\w*\. ?)*[A-Za-z_]\w*\(+ ?(?:\d+ ?, ?)?["“”'‘’*]?$/.exec(before.slice(-160));
  return call ? before.slice(0, before.length - call[0].length) : before;
}

/**
 * Whether the name a value is given says it is public or data, not a credential: an id, a hash, a
 * key id, a publishable or site key, a file's content, or a JSON Web Key's public member (where the
 * text holds its "kty") — and no part of it says secret (a publishable key's "key" aside).
 */
export function publicValue(text: string, at: number): boolean {
  const name = valueName(text, at);
  if (name === undefined) return false;
  const parts = nameParts(name);
  // A hash of a secret is not the secret ("checksum/secret", a config's checksum of its secrets).
  if (hashName(name) || publicKeyName(parts)) return true;
  // (A key a word qualifies is a secret's name, data or not: a kubeconfig's "client-key-data".)
  if (secretName(name) || parts.some((p) => (secretPart(p) && p !== 'key' && p !== 'keys') || p === 'session' || p === 'cookie')) return false;
  // A JSON Web Key's members where the text around is a key set's (its kty, kid, alg or e as OCR reads them).
  if (JWK_PUBLIC.test(name.split(' ').at(-1) as string) && /\b(?:kty|kid|crv|jwks|x5[ct])\b|\bAQAB\b|\b[REP]S(?:256|384|512)\b/.test(text.slice(Math.max(0, at - 3000), at + 3000))) return true;
  return parts.some((p) => ID_PARTS.has(p) || PUBLIC_PARTS.has(p));
}

/** Parts of a name that say its value is a hash of something, not the thing. */
const HASH_PARTS = new Set(['checksum', 'digest', 'hash', 'sha', 'sha1', 'sha256', 'sha512', 'fingerprint', 'integrity']);

/**
 * Whether a label's whole name, with what its path puts before it, says its value is a hash: a
 * deployment's "checksum/secrets" annotation, a "secrets.sha256" — a hash of the secrets, not them.
 */
function hashOf(text: string, at: number, label: string): boolean {
  const before = text.slice(text.lastIndexOf('\n', at - 1) + 1, at).split(/\s/).at(-1) ?? '';
  return hashName(before + label);
}

/** Whether a name has a part that says hash (the long ones as OCR reads them too, one letter off: "checksun"). */
function hashName(name: string): boolean {
  return nameParts(name).some((p) => HASH_PARTS.has(p) || (p.length >= 6 && [...HASH_PARTS].some((h) => h.length >= 6 && oneOff(p, h))));
}

/** IBAN lengths of the countries whose accounts are most often on a screen (SWIFT's registry). */
const IBAN_LENGTHS: Record<string, number> = {
  AT: 20, BE: 16, CH: 21, CZ: 24, DE: 22, DK: 18, ES: 24, FI: 18, FR: 27, GB: 22, GR: 27, HU: 28, IE: 22,
  IT: 27, LU: 20, NL: 18, NO: 15, PL: 28, PT: 25, RO: 24, SE: 24, SI: 19, SK: 24,
};

/** A digit as OCR may read it: O or o for 0, I, l or | for 1, S for 5, B for 8, Z for 2. */
const D = '[0-9OoIl|SBZ]';
const CONFUSED: Record<string, string> = { O: '0', o: '0', I: '1', l: '1', '|': '1', S: '5', B: '8', Z: '2' };
const AS_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '5': 'S', '8': 'B', '2': 'Z' };
/** `s` with confusable letters read as the digits they stand for. */
export function asDigits(s: string): string {
  return s.replace(/[OoIl|SBZ]/g, (c) => CONFUSED[c] ?? c);
}

/**
 * A card number printed in groups is the whole run of its groups: its first group four digits (every
 * network's is), no group of digits right before it or after it (a USPS tracking number's 22 digits
 * hold a Luhn-valid 16 one time in ten; a price's cents before an order number, "€203.32 0758 8077…",
 * are not its first group).
 */
function cardGroups(m: RegExpExecArray): boolean {
  const v = m[0];
  if (!/[ -]/.test(v)) return true;
  if ((v.split(/[ -]/)[0] ?? '').length < 4) return false;
  const before = m.input.slice(Math.max(0, (m.index ?? 0) - 6), m.index);
  const after = m.input.slice((m.index ?? 0) + v.length, (m.index ?? 0) + v.length + 3);
  return !/\d{3,}[ -]$|\d[.,]\d*[ -]?$/.test(before) && !/^[ -]\d/.test(after);
}

const CARD_WORDS = /\b(?:card|visa|master\s?card|amex|american express|discover|credit|debit|cc|kreditkarte|carte|tarjeta|pan)\b/i;

/**
 * Each country's account number (BBAN) as SWIFT's registry gives it: n digits, a letters, c either.
 * Where digits belong, a confusable letter is read as its digit; where letters do, the reverse.
 */
const BBAN: Record<string, string> = {
  AT: '16n', BE: '12n', CH: '5n12c', CZ: '20n', DE: '18n', DK: '14n', ES: '20n', FI: '14n', FR: '10n11c2n', GB: '4a14n', GR: '7n16c', HU: '24n', IE: '4a14n',
  IT: '1a10n12c', LU: '3n13c', NL: '4a10n', NO: '11n', PL: '24n', PT: '21n', RO: '4a16c', SE: '20n', SI: '15n', SK: '20n',
};

/** An IBAN as OCR read it, with confusables put back by its country's format; undefined when it does not fit one. */
export function ibanAsRead(raw: string): string | undefined {
  const s = raw.replace(/\s+/g, '');
  const country = s.slice(0, 2).toUpperCase();
  const format = BBAN[country];
  if (!format) return undefined;
  let out = country + asDigits(s.slice(2, 4));
  let at = 4;
  for (const [, n, t] of format.matchAll(/(\d+)([nac])/g)) {
    for (let i = 0; i < Number(n); i++, at++) {
      const ch = s[at];
      if (ch === undefined) return undefined;
      out += t === 'n' ? asDigits(ch) : t === 'a' ? (AS_LETTER[ch] ?? ch).toUpperCase() : ch.toUpperCase();
    }
  }
  return at === s.length ? out : undefined;
}

/** Prefixes that name a vendor's key, and what its key is called. */
const PREFIXES: ReadonlyArray<[string, RedactionKind]> = [
  ['AKIA', 'aws key'], ['ASIA', 'aws key'], ['ghp_', 'github token'], ['gho_', 'github token'], ['ghs_', 'github token'], ['ghu_', 'github token'], ['github_pat_', 'github token'],
  // GitLab's tokens (personal, pipeline trigger, deploy, runner, CI job, feed, incoming mail, OAuth
  // app secret): a prefix and 20–40 characters, hex for some ("glptt-<40 hex>"), which alone would
  // pass for a build's "name-<sha1>".
  ['glpat-', 'api key'], ['glptt-', 'api key'], ['gldt-', 'api key'], ['glrt-', 'api key'], ['glcbt-', 'api key'], ['glft-', 'api key'], ['glimt-', 'api key'], ['gloas-', 'api key'],
  ['xoxb-', 'slack token'], ['xoxp-', 'slack token'], ['xoxa-', 'slack token'], ['sk_live_', 'api key'], ['rk_live_', 'api key'], ['sk_test_', 'api key'], ['AIza', 'cloud key'], ['sk-proj-', 'api key'], ['sk-ant-', 'api key'],
];

/** Runs that start with a vendor's prefix read with at most one character wrong, and go on like a key. */
function* vendorPrefixes(text: string): Iterable<[number, number]> {
  for (const m of text.matchAll(/[A-Za-z0-9_-]{12,}/g)) {
    const run = m[0];
    // A piece of a base64 payload ("sha512-…+AKIqudI0…", an integrity string) is not a key's start.
    if (text[m.index - 1] === '+' || PAYLOAD_BEFORE.test(text.slice(Math.max(0, m.index - 200), m.index))) continue;
    for (const [prefix] of PREFIXES) {
      if (run.length < prefix.length + 8) continue;
      let wrong = 0;
      for (let i = 0; i < prefix.length && wrong < 2; i++) if (run[i] !== prefix[i]) wrong++;
      if (wrong > 1) continue;
      const rest = run.slice(prefix.length);
      // An AWS id's sixteen may be capitals alone (ASIA read as ASTA, then UPGBPTRCFSEWIQGO).
      const awsShape = prefix.startsWith('A') && prefix.length === 4 && prefix !== 'AIza' && /^[A-Z0-9]{15,17}$/.test(rest);
      if (!awsShape && (!/\d/.test(rest) || !/[A-Za-z]/.test(rest))) continue;
      yield [m.index, m.index + run.length];
      break;
    }
  }
  // The prefix's own _ or - read as a space ("sk_live DQSUKLMRQ…", the underscore too faint or too
  // low for OCR): the prefix, one space, and a body like a key's.
  for (const m of text.matchAll(/(?<![A-Za-z0-9_-])([A-Za-z0-9_-]{2,11}) ([A-Za-z0-9_-]{16,})/g)) {
    const [, head = '', body = ''] = m;
    // Digits and letters, or both cases (a key's 0s read as Os leaves it no digit).
    if (!/[A-Za-z]/.test(body) || !(/\d/.test(body) || (/[a-z]/.test(body) && /[A-Z]/.test(body)))) continue;
    for (const [prefix] of PREFIXES) {
      if (!/[_-]$/.test(prefix)) continue;
      const bare = prefix.slice(0, -1);
      if (head.length !== bare.length) continue;
      let wrong = 0;
      for (let i = 0; i < bare.length && wrong < 2; i++) if (head[i] !== bare[i]) wrong++;
      if (wrong > (bare.length >= 5 ? 1 : 0)) continue;
      yield [m.index, m.index + m[0].length];
      break;
    }
  }
}

const LABEL = String.raw`(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret|credentials?|bearer)`;

const RULES: readonly Rule[] = [
  {
    // An AWS key id with a character OCR added or dropped: secretlint wants exactly 16 after the prefix.
    category: 'keys',
    kind: 'aws key',
    rule: 'aws-id',
    // (Not AIDA, AROA, AGPA…: a user's, a role's or a group's unique id, which anyone in the account sees.)
    find: (t) => matches(t, /\b(?:AKIA|ASIA|A3T[A-Z0-9])[A-Z0-9]{12,20}\b/g),
  },
  {
    // A GitHub token OCR split or misread (secretlint wants its exact length): the prefix and what follows.
    category: 'keys',
    kind: 'github token',
    rule: 'github-shape',
    find: (t) => matches(t, /\b(?:gh[pousr]|github_pat)[_ ]\s?[A-Za-z0-9]{6,}(?: ?[A-Za-z0-9_]{4,}){0,4}/g),
  },
  {
    // Digits OCR read as letters (O for 0, l for 1, S for 5) are read back as digits; Luhn still decides.
    category: 'cards',
    kind: 'card number',
    rule: 'luhn',
    find: (t) => matches(t, new RegExp(String.raw`(?<![\w-])(?:${D}[ -]?){12,18}${D}(?![\w])`, 'g'), 0, (m) => {
      if (m[0].replace(/\D/g, '').length < 10) return false;
      if (!cardGroups(m)) return false;
      const digits = asDigits(m[0]).replace(/\D/g, '');
      if (digits.length < 13 || digits.length > 19 || !luhnValid(digits) || /^(\d)\1+$/.test(digits)) return false;
      // A card's first digit is its network's (ISO/IEC 7812: 2–6 for the banks' cards, 1 for an
      // airline's of 15 digits): a time in microseconds ("1765000026301401") or an id that passes Luhn
      // one time in ten is none, unless the screen says card.
      if (!/^[2-6]/.test(digits) && !(digits.length === 15 && digits[0] === '1') && !CARD_WORDS.test(m.input.slice(Math.max(0, m.index - 160), m.index))) return false;
      // An article number (EAN-13, its own check digit right) passes Luhn one time in ten; a card of
      // 13 digits is all but gone: one counts only where the screen says card.
      return !(digits.length === 13 && m[0].length === 13 && eanValid(digits)) || CARD_WORDS.test(m.input.slice(Math.max(0, m.index - 160), m.index));
    }),
  },
  {
    category: 'banking',
    kind: 'iban',
    rule: 'iban',
    find: (t) => matches(t, new RegExp(String.raw`\b[A-Z]{2}${D}{2}(?: ?[A-Z0-9Ol]){11,30}\b`, 'g'), 0, (m) => ibanValid(m[0]) || ibanValid(ibanAsRead(m[0]) ?? '')),
  },
  {
    // The same for an IBAN in groups of four with its country's length (one character more or less:
    // OCR adds a stray one, "FRS58"), confusable letters read as digits: a failed check is a misread.
    category: 'banking',
    kind: 'iban',
    rule: 'iban-shape',
    find: (t) => matches(t, new RegExp(String.raw`\b([A-Z]{2})[A-Z0-9]?${D}{2}(?: [A-Z0-9Ol]{4}){2,7}(?: [A-Z0-9Ol]{1,4})?\b`, 'g'), 0, (m) => {
      const want = IBAN_LENGTHS[m[1] as string];
      return want !== undefined && Math.abs(want - m[0].replace(/ /g, '').length) <= 1;
    }),
  },
  {
    // A card number printed in the networks' groups (4-4-4-4, Amex 4-6-5) that fails Luhn by a
    // misread digit is still one where the screen says "card" (an order or tracking number in
    // groups is not: 16 digits that fail Luhn are left alone elsewhere).
    category: 'cards',
    kind: 'card number',
    rule: 'card-shape',
    find: (t) => matches(t, new RegExp(String.raw`(?<![\w-])(?:[3-6]${D}{3}([ -])${D}{4}\1${D}{4}\1${D}{4}|3[47]${D}{2}([ -])${D}{6}\2${D}{5})(?![\w-])`, 'g'), 0, (m) => {
      if (m[0].replace(/\D/g, '').length < 12) return false;
      if (!cardGroups(m)) return false;
      if (luhnValid(asDigits(m[0]).replace(/\D/g, ''))) return true;
      return CARD_WORDS.test(m.input.slice(Math.max(0, m.index - 160), m.index));
    }),
  },
  {
    // A card number in four groups as OCR misread its big embossed digits — a group read a digit
    // long or short ("53212 5107 4783 6260", "4099 229810 0476 4476"), a stray dot on one ("4674
    // 9447. 4214 0371") — where the screen says card, visa or the like before it: 15–18 digits. OCR
    // may read each group as a line of its own; each line gets its own box (detect.ts).
    category: 'cards',
    kind: 'card number',
    rule: 'card-groups',
    find: (t) => matches(t, new RegExp(String.raw`(?<![\w.,-])[3-6]${D}{2,4}[.,']?(?:\s+${D}{3,6}[.,']?){2}\s+${D}{3,5}(?![\w-])`, 'g'), 0, (m) => {
      const digits = m[0].replace(/[^\dOoIl|SBZ]/g, '').length;
      return digits >= 15 && digits <= 18 && CARD_WORDS.test(m.input.slice(Math.max(0, m.index - 160), m.index));
    }),
  },
  {
    // A card number that wraps in a paragraph ("use the company card 4893⏎1928 3805 4812"): two
    // runs of digits either side of one line break, 13–19 digits in all, Luhn valid, after a word
    // that says "card" (a column of numbers, one a line, is not one).
    category: 'cards',
    kind: 'card number',
    rule: 'luhn-wrap',
    find: (t) => matches(t, new RegExp(String.raw`(?<![\w-])(?:${D}[ -]?){3,15}${D}\n(?:${D}[ -]?){3,15}${D}(?![\w])`, 'g'), 0, (m) => {
      const [a, b] = m[0].split('\n').map((part) => part.replace(/\D/g, '').length);
      if ((a ?? 0) < 4 || (b ?? 0) < 4) return false;
      const digits = asDigits(m[0]).replace(/\D/g, '');
      return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) && CARD_WORDS.test(m.input.slice(Math.max(0, m.index - 160), m.index));
    }),
  },
  {
    // A vendor's prefix read with one character wrong (AKIA as AKTA, ghp_ as qhp_), with a key after it.
    category: 'keys',
    kind: 'api key',
    rule: 'prefix-misread',
    find: (t) => vendorPrefixes(t),
  },
  {
    // A key its vendor marks with a prefix in capitals that says API or key (RGAPI-, PMAK-, a
    // "<VENDOR>KEY_"): what follows may be a UUID or hex, which alone passes for an identifier — the
    // prefix says what it is. The prefix is a short word of capitals ending in API, AK, KEY, TOK or
    // PAT, joined by a dash or an underscore; the body 24 characters or more with digits and letters.
    category: 'keys',
    kind: 'api key',
    rule: 'key-prefix',
    find: (t) => matches(t, /(?<![\w.-])[A-Z]{0,4}(?:API|AK|KEY|TOK|PAT)[-_](?:[A-Za-z0-9]+[-_]?){2,}/g, 0, (m) => {
      const body = m[0].replace(/^[A-Z]+[-_]/, '').replace(/[-_]/g, '');
      return body.length >= 24 && /\d/.test(body) && /[a-z]/i.test(body) && entropy(body) >= 3;
    }),
  },
  {
    category: 'keys',
    kind: 'jwt',
    rule: 'jwt',
    // A signed token's header always starts eyJ ('{"'); OCR may drop a dot, so the header alone counts.
    // (Not a map vendor's public token, "pk.eyJ1…": its secret ones are sk., its temporary ones tk.)
    find: (t) => matches(t, /\beyJ[A-Za-z0-9_-]{5,}(?:[.,][A-Za-z0-9_-]{4,}){0,2}/g, 0, (m) => !/(?:^|[^\w.])pk[.,]\s?$/.test(m.input.slice(Math.max(0, m.index - 4), m.index))),
  },
  {
    // A value in a text table's column whose header names a secret ("ID | Key | Reusable | …" over
    // headscale's pre-auth keys, "| name | token |" in a Markdown table): each row's cell in that
    // column, when it is one run of a key's alphabet with letters and digits — hex too, which alone
    // passes for a hash: the header says what it is.
    category: 'passwords',
    kind: 'secret',
    rule: 'table-column',
    find: (t) => tableColumns(t),
  },
  {
    // A YubiKey's one-time password, typed by the key wherever the cursor is (a chat, a terminal):
    // 44 characters of modhex (cbdefghijklnrtuv, the letters a keyboard of any layout types alike),
    // its first twelve the key's id — a run of small letters no language has a word of. As OCR reads
    // it: 36–48 letters (some lost), a few read as others (an a for a c, an o for a b), nine in ten modhex.
    category: 'keys',
    kind: 'password',
    rule: 'modhex-otp',
    find: (t) => matches(t, /(?<![A-Za-z0-9])[a-z]{36,48}(?![A-Za-z0-9])/g, 0, (m) => m[0].replace(/[^cbdefghijklnrtuv]/g, '').length >= m[0].length * 0.88 && new Set(m[0]).size >= 8),
  },
  {
    // A macaroon (LND's admin.macaroon, a bakery's credential), hex or base64: version 2's fields
    // first — 02, then the location's field 01 and its length — so hex starts "0201" and base64
    // "AgE"; a bearer credential, spent by whoever has it. Long: 100 characters and more of hex
    // (a hash is 40–128), 70 and more of base64.
    category: 'keys',
    kind: 'secret',
    rule: 'macaroon',
    find: (t) => [
      ...matches(t, /(?<![0-9A-Za-z])0201[0-9a-fA-F]{2}[0-9a-fA-F\s]{94,}/g, 0, (m) => m[0].replace(/\s/g, '').length >= 100 && !/\s\S{1,3}\s/.test(m[0])),
      ...matches(t, /(?<![0-9A-Za-z+/])AgE[A-Za-z0-9+/_-]{67,}={0,2}/g),
    ],
  },
  {
    category: 'keys',
    kind: 'private key',
    rule: 'pem',
    find: (t) => pemBlocks(t, true),
  },
  {
    // Any other armour whose name does not say public: an OpenVPN static key, a licence (pemBlocks).
    category: 'keys',
    kind: 'secret',
    rule: 'armour',
    find: (t) => pemBlocks(t, false),
  },
  {
    category: 'passwords',
    kind: 'password',
    rule: 'label',
    // KEY=value, key: value, "token": "value", Authorization: Bearer value. The value is hidden, not the label.
    // A setting about a secret (passwordMinLength = 12) or a sentence after a label ("Password:
    // must be 12 characters") is not one: the value must look like a secret (labelValue).
    find: (t) => matches(t, new RegExp(String.raw`([\w.-]*${LABEL}[\w.-]*)["']?\s*(?:[:=]|=>|:=)\s*(?:bearer\s+|basic\s+)?["']?([^\s"'<>]{3,})`, 'gi'), 2, (m) => !hashOf(m.input, m.index, m[1] as string) && labelValue(m[1] as string, m[2] as string, m.input.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 80))),
  },
  {
    // A password on a command line: `--password=…`, `--token …`, and `-p …` (`-a` for redis-cli)
    // after the commands whose -p is a password (docker login, mysql, sshpass, helm registry login;
    // not ssh's or psql's port, not mkdir's parents), and the word after Windows' `/user:DOMAIN\name`
    // (`net use Z: \\fs01\share /user:ACME\ada <password>`). The value must have letters with digits,
    // symbols or capitals inside, and no path or port in it.
    category: 'passwords',
    kind: 'password',
    rule: 'cli-flag',
    find: (t) =>
      matches(t, /(?:--(?:password|passwd|token|api-key|secret)[= ]|\b(?:docker|podman|nerdctl|mysql|mysqladmin|mysqldump|mariadb|sshpass|helm|oras|skopeo)\b[^\n]*?\s-p ?|\bredis-cli\b[^\n]*?\s-a |(?<!\S)\/u(?:ser)?:\S+\s+)["']?([^\s"']{4,})/g, 1, (m) => {
        const v = m[1] as string;
        // (A help text's placeholder for the value is a word in capitals: "--password TEXT", "--token NAME".)
        if (/[/:@]|^\d+$|^[A-Z]{3,10}$/.test(v) || NOT_VALUES.has(v.toLowerCase())) return false;
        return /[A-Za-z]/.test(v) && (/\d/.test(v) || /[^A-Za-z0-9]/.test(v) || /.[A-Z]/.test(v));
      }),
  },
  {
    // A user and password on a command line: `curl -u user:pass`, `--user user:pass`, smbclient's
    // `-U user%pass`, and htpasswd's -b (batch: the password is the last word of the command),
    // openssl's `-passin pass:…`. The password part must look like one (letters with digits,
    // symbols or capitals), not a port or a path.
    category: 'passwords',
    kind: 'password',
    rule: 'cli-user-pass',
    find: (t) => [
      ...matches(t, /(?:\s-u|\s-U|--user|--proxy-user|--http-user)[= ]["']?[^\s:%"'/]{1,64}[:%]([^\s"'@]{4,})/g, 1, (m) => passwordShaped(m[1] as string)),
      ...matches(t, /\bhtpasswd\b[^\n]*?\s-[a-zA-Z]*b[a-zA-Z]*\s[^\n]*?\s["']?([^\s"']{4,})["']?[ \t]*$/gm, 1, (m) => passwordShaped(m[1] as string)),
      ...matches(t, /-pass(?:in|out|word)?\s+pass:["']?([^\s"']{4,})/g, 1),
    ],
  },
  {
    // A login and its password written as a pair, in a wiki or a chat: "admin / Harbor50#IZPJ",
    // "ops@acme.io / Quartz-11", "root:Tiger22!BVgq". The first is a login (an e-mail or an account
    // name people give out), or the words before it on the line speak of logging in; the second
    // looks like a password (letters with digits, symbols or capitals), not a path or a date.
    category: 'passwords',
    kind: 'password',
    rule: 'login-pair',
    find: (t) => [
      ...matches(t, /(?<![\w/.@-])([\w.+-]+(?:@[\w-]+(?:\.[\w-]+)+)?)[ \t]+\/[ \t]+["'`]?([^\s"'`]{6,64})/g, 2, (m) => {
        const line = t.slice(t.lastIndexOf('\n', m.index) + 1, m.index);
        // (Not a path's last two parts, a word or two in small letters: a build's "user / release-keys".)
        return passwordShaped(m[2] as string) && !/^[a-z]+(?:-[a-z]+)?$/.test(m[2] as string) && (LOGIN_NAMES.test(m[1] as string) || /@/.test(m[1] as string) || LOGIN_WORDS.test(line));
      }),
      ...matches(t, /(?<![\w/.@:-])([\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:admin|administrator|root|superuser|sysadmin|guest|demo|test|ubuntu|postgres|deploy|operator|support|sa)):([^\s"'`:@/]{6,64})(?![\w@:])/gi, 2, (m) => passwordShaped(m[2] as string)),
    ],
  },
  {
    // A one-time code said in a message: "Your verification code is 482913", "482913 is your
    // sign-in code", "login code: 4821", and a code that opens something ("door code at the office:
    // 9942#", "alarm code is 4821") — a zip code or an error code is not one: the word before "code"
    // must say what it is for (its d read as "cl" too: OCR reads the two as one in small type).
    category: 'passwords',
    kind: 'password',
    rule: 'code-said',
    find: (t) => {
      const kind = String.raw`(?:verification|sign[- ]?in|log[- ]?in|security|confirmation|one[- ]time|2fa|two[- ]factor|auth(?:entication)?|access|otp|mfa|(?:d|cl)oor|gate|alarm|entry|garage|lock|safe|keypad|building|unlock)`;
      // What a code opens, named alone before it with a colon or a dash between, as a note lists
      // them ("Garage door: 7131", "Bike lock — 4852"); not a file's name and line ("yarn.lock:1042").
      const opens = String.raw`(?:(?:d|cl)oor|gate|alarm|garage|lock|padlock|locker|safe|keypad)`;
      const found = [
        // (Its "is" or colon may be left out: "Alarm code 675492 (then #)".)
        ...matches(t, new RegExp(String.raw`\b${kind}\s+(?:code|pin|passcode)\b(?:[^\n\d]{0,20}?(?:is|:))?\s*(\d{3}[ -]?\d{3}|\d{4,8})\b(?![.,/:-]\d)`, 'gi'), 1),
        ...matches(t, new RegExp(String.raw`(?<![\w./-])${opens}[ \t]*(?:[:=—–-][ \t]*){1,2}(\d{4,8})\b(?![.,/:-]\d)`, 'gi'), 1),
        ...matches(t, new RegExp(String.raw`(?<![\w-])(\d{3}[ -]?\d{3}|\d{4,8})\s+[il1|!][sil5|]\s+your\s+(?:[\w-]+\s+){0,3}?${kind}?\s*(?:code|pin|passcode)\b`, 'gi'), 1),
        // "Your code is 330233" under a heading or a sentence that says what the code is for (a
        // phone's notification: "Sign-in code" over its text), up to two lines above.
        ...matches(t, /\b(?:code|pin|passcode)\s*(?:is|:)\s*(\d{3}[ -]?\d{3}|\d{4,8})\b(?![.,/:-]\d)/gi, 1, (m) => {
          const before = m.input.slice(0, m.index).split('\n').slice(-3).join('\n');
          return new RegExp(String.raw`\b${kind}[\s-]+(?:code|pin|passcode)s?\b`, 'i').test(before);
        }),
        ...codesInSentences(t),
      ];
      // (Each number once: a sentence's code may be named both ways, "The gate code is 4821".)
      return found.filter(([a, b], i) => found.findIndex(([c, d]) => c === a && d === b) === i);
    },
  },
  {
    // A disk's or an account's recovery key printed as groups of digits (BitLocker's eight groups of
    // six, "850563-996809-…"): five groups or more of 4–8 digits joined by dashes, 24 digits or more,
    // whatever is around it — a lone one in a dialog has no caption. No number people read
    // (a phone, a card, an account, a date, an order) is that long in that shape.
    category: 'keys',
    kind: 'secret',
    rule: 'digit-groups',
    find: (t) => matches(t, new RegExp(String.raw`(?<![\w-])${D}{4,8}(?: ?[-–] ?${D}{4,8}){4,}(?![\w-])`, 'g'), 0, (m) => m[0].replace(/\D/g, '').length >= 24),
  },
  {
    // A Wi-Fi key after its name ("office wifi: hxiw88GZra6MnX9k", "WLAN key = …"): WPA's 8–63
    // characters, with digits, symbols or capitals inside ("wifi: on" is a setting, not a key).
    category: 'passwords',
    kind: 'password',
    rule: 'wifi',
    find: (t) => matches(t, /\b(?:wi-?fi|wlan|wpa2?)(?:\s+(?:password|passwort|key|pass(?:phrase)?|pw))?\s*[:=]\s*["'`]?([^\s"'`]{8,63})/gi, 1, (m) => /\d|[^A-Za-z0-9]|.[A-Z]/.test(m[1] as string)),
  },
  {
    // A PIN (or a SIM's PUK) after its name, colon or not ("vpn pin 636509", "PIN: 4821", "SIM PUK: 77220455"): 4–8 digits.
    category: 'passwords',
    kind: 'password',
    rule: 'pin',
    find: (t) => matches(t, /\b(?:pin|pin[- ]?code|passcode|puk2?)\b\s*(?:[:=#]|is)?\s*(\d{4,8})(?!\w|[.,/:-]\d)/gi, 1),
  },
  {
    // Said in a sentence: "the staging db password is Harbor97?PD7m" — a value that looks like one
    // (digits, symbols or capitals inside), not "the password is required".
    category: 'passwords',
    kind: 'password',
    rule: 'said',
    // (OCR reads a stroke of a letter beside the name as a colon or a comma now and then: "password: is".)
    find: (t) => matches(t, /\b(?:password|passwd|passphrase|passcode|pin|token|secret|api key|key)[:,;]?\s+(?:is|was|=)\s*:?\s+["'`]?([^\s"'`]{6,})/gi, 1, (m) => {
      const v = (m[1] as string).replace(/[.,;:!?)]+$/, '');
      // Code, not a sentence: `const key = hash(item.id);` assigns a call, not a secret.
      if (/^[A-Za-z_$][\w$.]*\(|\$\{/.test(v)) return false;
      return v.length >= 6 && !NOT_VALUES.has(v.toLowerCase()) && (/\d/.test(v) || /[^A-Za-z0-9]/.test(v) || /.[A-Z]/.test(v));
    }),
  },
  {
    // A secret named a few words before its value in a sentence, the value after a colon or an "is":
    // "the new wifi password for when you come sunday: lantern_orbit9947", "my api token for the
    // staging box is k8Qz…". The clause before it (up to eight words, back to a sentence's end) names
    // a secret (secretName over its words: password, token, api key…) and nothing in it says the value
    // is an identifier or a setting (id, hash, length, url…); the value looks like a password, not a word.
    // (OCR reads a colon as a comma now and then: after a comma the value must read as generated, randomValue.)
    category: 'passwords',
    kind: 'password',
    rule: 'named-said',
    // (A key OCR read in pieces after the colon, "key share 2 of 3: bH/ i +cluSBaXmt jXg2uulT8D14cngeX PPI 1NDGSOFP":
    // the pieces to the line's end, when joined they read as a key and few of them are words.)
    find: (t) => [
      ...matches(t, /(?:^|[.!?;]\s+|\n)([^\n.!?;:]{3,90}?)([:,]|\s+(?:is|was|=))\s+["'`“]?([^\s"'`”]{6,64})/g, 3, (m) => namedInClause(m[1] as string) && saidValue(m[3] as string) && (m[2] !== ',' || randomValue(m[3] as string))),
      ...matches(t, /(?:^|[.!?;]\s+|\n)([^\n.!?;:]{3,90}?):[ \t]+((?:[A-Za-z0-9+/=_-]+[ \t]+){1,5}[A-Za-z0-9+/=_-]+)[ \t]*(?=\n|$)/g, 2, (m) => {
        const pieces = (m[2] as string).split(/[ \t]+/);
        return pieces.filter((p) => /^[a-z]{3,}$|^[A-Z][a-z]{2,}$/.test(p)).length <= 1 && keyLike(pieces.join('')) && namedInClause(m[1] as string);
      }),
    ],
  },
  {
    // A card's verification code after its name: "CVC 457", "cvv: 700", "security code is 0123", "the
    // three numbers on the back: 367" — three or four digits, a word or two between at most.
    category: 'cards',
    kind: 'card number',
    rule: 'card-code',
    find: (t) => matches(t, /\b(?:cvv2?|cvc2?|csc|cid|card\s+(?:security|verification)\s+(?:code|value|number)|security\s+code|(?:digits|numbers)\s+on\s+the\s+back)\b[^\n\d]{0,14}?(?<![\d/.-])(\d{3,4})(?![\d/.,:-]?\d)/gi, 1),
  },
  {
    // Codes listed after the caption that names them on its line: "backup codes: 64217807, 26230075
    // (used 1 of 5)", "recovery codes 4821-0931 7730-1184" — each 6–12 letters and digits (a dash
    // inside), with a digit; the list ends at the first word that is no code.
    category: 'passwords',
    kind: 'password',
    rule: 'code-list',
    find: (t) => codeLists(t),
  },
  {
    // An argument of a command that logs in or identifies: an IRC client's `/msg NickServ identify
    // <password>`, `identify <account> <password>`, `/oper <name> <password>`, `/pass`, and a shell's
    // `login <user> <password>`, `auth <password>` (redis-cli's AUTH) — where a line, a prompt or a
    // chat's speaker column starts the command (not "pass" in a sentence) — the last argument, when it
    // looks like a password (letters with digits or symbols), not words joined ("bot-ci"), a path, a
    // host or an address. An account's name before it is a name's characters alone.
    category: 'passwords',
    kind: 'password',
    rule: 'auth-command',
    // (A game server's /register and /login take the password, twice for /register; the line's last
    // argument is one of them. A text cursor after it, "_", is the field's, not the password's.)
    find: (t) => {
      const shaped = (v: string) => passwordShaped(v) && (/\d/.test(v) || /[^A-Za-z0-9]/.test(v)) && /[A-Za-z]/.test(v) && !/[/\\]|^\d+[a-z]*$|^[\w.+-]+@[\w-]+\.[\w.]+$|^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,6}$/.test(v) && !/^[a-z]+(?:[-_.][a-z]+)*$/i.test(v);
      return [
        // (A digit first is a password's as often as not, "1bFuw2ro-HQB"; digits and a word only are a count, "3rdparty".)
        ...matches(t, /(?:^|[|>:\]$#%][ \t]*|[ \t]\/)[ \t]*(?:\/?(?:(?:msg\s+)?(?:nickserv|ns)\s+identify|identify|oper|pass|auth|login)|\/(?:register|reg|changepassword|changepw)(?:\s+\S{6,64})?)\s+(?:[\w.@-]{1,32}\s+)?["'`]?([^\s"'`]{6,64}?)["'`]?_?[ \t]*(?=$|\n)/gim, 1, (m) => shaped(m[1] as string)),
        // (/register's first password, where the line repeats it.)
        ...matches(t, /(?:^|[|>:\]$#%][ \t]*|[ \t])\/(?:register|reg|changepassword|changepw)\s+["'`]?([^\s"'`]{6,64})["'`]?(?=\s+\S{6,64}_?[ \t]*(?:$|\n))/gim, 1, (m) => shaped(m[1] as string)),
      ];
    },
  },
  {
    // user:password@host in any URL, even when OCR garbled its scheme (secretlint needs it exact).
    category: 'passwords',
    kind: 'password',
    rule: 'url-password',
    // A digest OCR read an @ into ("sha256:6986…0de@d895…") is not user:password@host, nor a setting
    // whose quoted value names a package at its registry (a lock file's 'resolution: "postcss@npm:…"'):
    // a URL's user and password are not quoted.
    // Nor an id OCR read a 0 of as @ after its name ("traceparent: 00-49851cb@e2c2…-01"): a name that
    // says trace, span, request or hash, and hex.
    // Nor a package at its version after a name ("Release: shop@3.2.0", sentry-cli's): a host is named,
    // or an address of four numbers.
    // Nor an image's tag before its digest ("ghcr.io/acme/api:2.14.0@sha256:…", a registry's reference):
    // what follows the @ names a hash's algorithm, no host.
    find: (t) => matches(t, /([\w.%+-]+): ?(?!["'“”‘’`])([^\s:@/]{3,})@([\w-]+(?:\.[\w-]+)*)/g, 2, (m) => !/^(?:sha[0-9lIS]{0,3}|md5|h[1lI])$/i.test(m[1] as string) && !/^[sS5£$]?ha(?:1|224|256|384|512|2S6)$/.test(m[3] as string) && !/^v?\d+(?:\.\d+){0,2}(?:-[\w.]+)?$/.test(m[3] as string) && !identifier(m[0].replace(/: /, ':'))),
  },
  {
    // …and when OCR lost the @ too: scheme://user:value, a value with letters in it (a port has none).
    category: 'passwords',
    kind: 'password',
    rule: 'url-password',
    // The user may be empty (redis://:password@host); OCR may read a _ in the password as a space
    // ("oauth2:glpat-9Rnub dfIZPIfEZxSMCb@gitlab.com"): up to the @, one space inside.
    find: (t) => [
      ...matches(t, /[a-z][\w+.-]*:\/\/[^\s:/@]*: ?((?=[^\s/]*[A-Za-z])[^\s/]{6,})/gi, 1),
      ...matches(t, /[a-z][\w+.-]*:\/\/[^\s:/@]*: ?([^\s:/@]{3,} [^\s:/@]{3,})(?=@[\w-])/gi, 1),
      // Cut off by its box before the @ (a config page's field shows 40 of a database URL's 64
      // characters), its scheme read apart ("postgres: //u…: 1kgb… fouej…"): what shows of the
      // password, to the line's end — a port (digits alone) is not one.
      ...matches(t, /[a-z][\w+.-]*: ?\/\/ ?[^\s:/@]+ ?: ?((?=[^\s/@]*[A-Za-z])[^\s/@]{3,}(?:[ \t]+[^\s/@]+)*)[ \t]*$/gim, 1),
    ],
  },
  {
    // A chat bot's token: the bot's numeric id, a colon, a 35-character key (Telegram's
    // 123456789:AA…). OCR cuts the key at its - and _ into pieces too short for the entropy rule
    // ("AAG-N7YBDCyoeaM 8R82-S898NjNSN1ZL14", a j read as ] or |): the pieces that follow on the line
    // are taken up to 40 characters in all, the bot's id with them.
    category: 'keys',
    kind: 'api key',
    rule: 'bot-token',
    find: (t) => matches(t, /(?<![\w.:/-])\d{8,10} ?[:;] ?(A[A-Za-z4][A-Za-z0-9_|\]-]*(?: [A-Za-z0-9_|\]-]+){0,4})/g, 0, (m) => {
      const pieces = (m[1] as string).split(' ');
      let key = '';
      for (const p of pieces) {
        if (key.length >= 30 || key.length + p.length > 42) break;
        key += p;
      }
      return key.length >= 28 && /\d/.test(key) && /[a-z]/.test(key) && /[A-Z]/.test(key.slice(2));
    }),
  },
  {
    // A key as a URL's user name, before the @ with no password after it: a Sentry DSN
    // (https://<32 hex>@o123.ingest.sentry.io/…), a token in a git remote (https://ghp_…@github.com).
    // A person's login there is short or a word; this is 16 or more characters with digits in it.
    // When OCR lost the @ (read it as '0o'), the key runs into the host: a first host label of 28 or
    // more characters with no dash in it, letters and digits (and OCR's £ € ] for hex) is no host's.
    category: 'keys',
    kind: 'api key',
    rule: 'url-user-key',
    find: (t) => [
      ...matches(t, /[a-z][\w+.-]*: ?\/\/ ?([A-Za-z0-9_-]{16,})@[\w-]+(?:\.[\w-]+)+/gi, 1, (m) => /\d/.test(m[1] as string) && /[A-Za-z]/.test(m[1] as string)),
      // (Not a content address after its scheme: ipfs://<CID>/metadata.json.)
      ...matches(t, /[a-z][\w+.-]*: ?\/\/ ?([A-Za-z0-9£€[\]|]{28,})(?=[.@/:])/gi, 1, (m) => /\d.*\d.*\d/.test(m[1] as string) && /[A-Za-z]/.test(m[1] as string) && !/^\d+$/.test(m[1] as string) && !/^ip[fn]s:/i.test(m[0])),
    ],
  },
  {
    // A wallet's recovery phrase: 12–24 words of BIP-39's list, numbered or in a grid (seedPhrase.ts).
    category: 'passwords',
    kind: 'secret',
    rule: 'seed-phrase',
    find: (t) => seedPhrases(t),
  },
  {
    // A secret handed to a call or a map by its quoted name: PHP's `define( 'AUTH_KEY', '…' );`,
    // `putenv("API_TOKEN=…")`'s kin `setenv("API_TOKEN", "…")`, `'password' => '…'` in a PHP
    // array. The value is what lies between its quotes to the line's end, spaces and signs
    // included (a WordPress salt is 64 characters of any of them, which breaks every run the
    // other rules read). The name says key, salt, secret, password or token; the value is not a word.
    category: 'passwords',
    kind: 'secret',
    rule: 'quoted-name',
    find: (t) =>
      // (OCR reads a SCREAMING name's _ as a space, or puts a space before it, now and then, and
      // drops or doubles a quote.)
      matches(t, /(?:\b(?:define|constant|putenv|setenv|set|setdefault|config|env)\s*\(\s*["'‘’`]?|["'‘’`])([A-Za-z_][\w.-]{1,60}(?: [A-Z_][A-Z0-9_]+)?)["'‘’`]{0,2}\s*(?:,|=>)\s*["'‘’`]?(.+?)(?:["'‘’`]{0,2}\s*\)?\s*[;,]?)?[ \t]*$/gm, 2, (m) => {
        const name = (m[1] as string).replace(/ /g, '_'), v = m[2] as string;
        const named = secretName(name) || (/(?:^|[_.-])(?:salt|key|secret)$/i.test(name) && !/(?:^|[_.-])(?:id|ids|public|pub|publishable|path|file|url|uri|name|type|sort|cache|partition)(?:[_.-]|$)/i.test(name));
        if (!named || v.length < 8 || /:\/\//.test(v)) return false;
        if (randomValue(v)) return true;
        // Signs and spaces inside (OCR splits a salt at its signs): letters of both cases, digits and
        // signs, most of it not lower-case words (code after a name, `max_length=128, blank=True`, is).
        const packed = v.replace(/\s+/g, '');
        const classes = Number(/[a-z]/.test(v)) + Number(/[A-Z]/.test(v)) + Number(/\d/.test(v)) + Number(/[^A-Za-z0-9\s]/.test(v));
        return packed.length >= 16 && classes >= 3 && entropy(packed) >= 3.5 && packed.replace(/[^a-z_]/g, '').length < packed.length * 0.55;
      }),
  },
  {
    // A URL's query parameter that carries a signature or a credential: an Azure SAS's sig=, a
    // presigned link's X-Amz-Signature= or Signature=, ?access_token=, &client_secret=. Its value is
    // percent-encoded base64 (%2F, %2B, %3D), which breaks the runs the entropy rule reads, and OCR
    // reads a % as %: or : now and then. A short or plain value (sig=1, token=true) is left.
    category: 'passwords',
    kind: 'secret',
    rule: 'url-param',
    find: (t) => urlParams(t),
  },
  {
    // The random parts of a link through a secret's place (webAddress): a password reset's or an
    // invitation's token in its path, a webhook's last segment. A path with more than a few slashes
    // is no key to the entropy rule, so these went by it.
    category: 'passwords',
    kind: 'secret',
    rule: 'link-token',
    find: (t) => capabilityLinkParts(t),
  },
  {
    // An environment file's secret: NAME_KEY=…, NAME_SECRET: …, the rest of the line (OCR splits
    // values at underscores it misses: "sk live Jqfw…"). OCR reads = as - now and then
    // ("POSTGRES_PASSWORD-acoXj!Qip3#£7"): after a dash the value must look like a secret.
    category: 'passwords',
    kind: 'secret',
    rule: 'env',
    find: (t) => matches(t, /\b[A-Z][A-Z0-9]*(?:[_ ][A-Z0-9]+)*?[_ ]?(?:KEY(?:[_ ]ID)?|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|DSN)(\s*[:=]\s*|-(?=[^\s-]))(\S[^\n]*)/g, 2, (m) => !PLACEHOLDER.test(m[2] as string) && (m[1] !== '-' || /^\S*(?:\d|[^A-Za-z0-9\s]|.[A-Z])/.test(m[2] as string))),
  },
  {
    // A generated or chosen value right after a name that says it is secret — `password 9b6f…`
    // (.netrc), `app_key: 4d3f…` (YAML), `TWILIO AUTH TOKEN a175…` (a config page read with no
    // separator), "api key 6f77…" in a message. Hex and UUID shapes count here: the look-alike rules
    // leave them alone only when nothing names them secret.
    category: 'passwords',
    kind: 'secret',
    rule: 'named',
    find: (t) => namedValues(t),
  },
  {
    category: 'passwords',
    kind: 'password',
    rule: 'bearer',
    find: (t) => matches(t, /\b(?:bearer|basic)\s+([A-Za-z0-9+/._~-]{12,}=*)/gi, 1),
  },
  {
    // A passphrase of words after its label ("passphrase: lantern maple river 46", a seed phrase, a
    // mnemonic): the words to the end of its clause, however ordinary each is — what a label alone
    // takes is one word, and a word in small letters followed by more reads as a sentence there.
    category: 'passwords',
    kind: 'password',
    rule: 'passphrase',
    // (Not a sentence about it: "Passphrase: shown in the router's settings", a German page's
    // "WLAN-Netzwerkschlüssel: wird im Router angezeigt" — words a generated phrase has none of.)
    find: (t) => matches(t, /\b(?:pass ?phrase|seed phrase|recovery phrase|mnemonic)s?\s*[:=]\s*["'“]?((?:[A-Za-z0-9'-]{1,16} ){1,11}[A-Za-z0-9'-]{1,16})/gi, 1, (m) => !NOT_VALUES.has((m[1] as string).split(' ')[0]?.toLowerCase() ?? '') && !(m[1] as string).split(' ').some((w) => SENTENCE_WORDS.has(w.toLowerCase()))),
  },
  {
    // A cookie's value in an HTTP exchange (a Cookie: or Set-Cookie: header in a packet dump, a proxy,
    // devtools): a session's credential whatever its shape — hex too, which alone passes for a hash.
    category: 'passwords',
    kind: 'secret',
    rule: 'cookie',
    find: (t) => cookieValues(t),
  },
  {
    category: 'highEntropy',
    kind: 'key-like text',
    rule: 'entropy',
    // …unless it is a data URI's payload (base64 of an icon) or a hash named as one ("sha256:…"), or
    // its name on its line says it is an identifier ("Bitcoin address: belgpjnw…" as OCR read bc1q…).
    // Nor a run on an SSH public key's line (a piece of an ARN: ruleFindings), nor a value whose name
    // says it is public or data, on its line or the line its quoted value started on (publicValue).
    find: (t) => matches(t, /[A-Za-z0-9+/=_~.-]{20,}/g, 0, (m) => !PAYLOAD_BEFORE.test(m.input.slice(Math.max(0, m.index - 200), m.index)) && !LOCK_ENTRY.test(m.input.slice(Math.max(0, m.index - 200), m.index)) && !inPublicBlock(m.input, m.index) && !namedIdentifierBefore(m.input.slice(m.input.lastIndexOf('\n', m.index - 1) + 1, m.index)) && !publicValue(m.input, m.index) && !onSshKeyLine(m.input, m.index) && !inIdentifier(m.input, m.index, m.index + m[0].length) && !idNamedRun(m.input, m.index, m[0]) && keyLike(m[0].replace(/^[._~-]+|[._~-]+$/g, ''))),
  },
  {
    // A run whose shape alone says credential (keyShapes.ts: a product key in groups, capitals no word
    // is made of, capitals' hex of a key's length, random parts joined by "::", a grid of hex rows) is
    // hidden unless something says public: a public identifier's structure or checksum, a name before
    // it or its member's name that says id or hash, a payload's or a lock file's place, a public block.
    category: 'highEntropy',
    kind: 'key-like text',
    rule: 'key-shape',
    // (A run of hex by its shape is no hash by default here: identifier() would call every one a hash.)
    find: (t) => keyShapeSpans(t).filter(([start, end, shape]) => {
      const line = t.slice(t.lastIndexOf('\n', start - 1) + 1, start);
      const before = t.slice(Math.max(0, start - 200), start);
      // (Its whole token, where OCR cut the run short with a sign ("order_id=01]YENK…", a ULID's J read as
      // a bracket): a name in it that says id, or, for a run not of hex, an identifier's structure.)
      const token = /\S*$/.exec(line)?.[0] ?? '';
      const name = /^["'“”‘’]?([A-Za-z_][\w.-]*)["'“”‘’]?[=:]/.exec(token)?.[1];
      if (name !== undefined && identifierName(name)) return false;
      if (shape === 'hex' ? knownPublicId(t.slice(start, end)) : inIdentifier(t, start, end)) return false;
      // (A run of capitals not of hex stands alone, as a key is shown: inside a longer token ("order_id=01]YENK…")
      // it is a field's value that OCR cut, an id's as often as not.)
      if (shape === 'other' && (/[^\s"'“”‘’([{|]$/.test(line) || /^[^\s"'“”‘’)\]},;.|]/.test(t.slice(end)))) return false;
      return !PAYLOAD_BEFORE.test(before) && !LOCK_ENTRY.test(before) && !inPublicBlock(t, start) && !namedIdentifierBefore(line) && !NAMED_IDENTIFIER.test(line) && !publicValue(t, start) && !onSshKeyLine(t, start);
    }).map(([start, end]): [number, number] => [start, end]),
  },
  {
    category: 'contact',
    kind: 'email',
    rule: 'email',
    find: (t) => matches(t, /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g),
  },
  {
    category: 'contact',
    kind: 'phone number',
    rule: 'phone',
    find: (t) => matches(t, /(?<![\w])\+?\(?\d{1,4}\)?(?:[ .-]?\(?\d{2,4}\)?){2,4}(?![\w])/g, 0, (m) => {
      const n = m[0].replace(/\D/g, '').length;
      return n >= 9 && n <= 15 && /[ .()+-]/.test(m[0]);
    }),
  },
];

/**
 * Whether a run is a value its own name in the run calls an id ("event_id=2tPO6MTIWUWY…", a log's
 * field; "REQUEST_ID=…") and nothing in the name says secret: an identifier of whatever alphabet (a
 * KSUID OCR read a character long, a nanoid), as namedIdentifierBefore judges a value after its name
 * and a space. A name of one part takes the word before it on its line, where OCR split the name at
 * its underscore: "event _id=" is an event's id, "AWS ACCESS KEY ID=" a key's.
 */
function idNamedRun(text: string, at: number, run: string): boolean {
  const m = /^_*([A-Za-z][\w.]*)[=:]["']?[^=:]+$/.exec(run);
  if (!m) return false;
  let name = m[1] as string;
  if (nameParts(name).length === 1) name = `${/(\S+)[ \t]+$/.exec(text.slice(text.lastIndexOf('\n', at - 1) + 1, at))?.[1] ?? ''} ${name}`;
  return identifierName(name);
}

/** A cookie's attributes, not cookies: when it expires, where it is sent, how. */
const COOKIE_ATTRIBUTE = /^(?:expires|path|domain|max-age|samesite|secure|httponly|priority|partitioned|version|comment)$/i;

/**
 * The values of the cookies a Cookie: or Set-Cookie: header sets or sends (Set-Cookie's first pair,
 * every pair of Cookie's): 12 characters or more of a token's alphabet with a digit and a letter.
 * Not an attribute, a short value ("lang=en"), a number, an analytics id of dotted numbers
 * ("GA1.1.1234567.1700000000"). OCR reads the = as a dash now and then ("nagios_session-621b…"):
 * then the value is the run after the pair's last dash, when that run is 16 characters or more.
 */
function* cookieValues(text: string): Iterable<[number, number]> {
  for (const m of text.matchAll(/\b(set-)?cookie\s*[:;]\s*([^\n]+)/gi)) {
    let at = (m.index ?? 0) + m[0].length - (m[2] as string).length;
    for (const [n, pair] of (m[2] as string).split(';').entries()) {
      const start = at + (pair.length - pair.trimStart().length);
      at += pair.length + 1;
      if (m[1] && n > 0) break;
      const p = pair.trim().replace(/[,.]$/, '');
      const eq = p.indexOf('=');
      const [name, value, from] = eq > 0 ? [p.slice(0, eq), p.slice(eq + 1), eq + 1] : (() => {
        const dash = p.lastIndexOf('-');
        return dash > 0 && p.length - dash > 16 ? [p.slice(0, dash), p.slice(dash + 1), dash + 1] : ['', '', 0];
      })();
      const v = value.replace(/^["']|["']$/g, '');
      // (A sign OCR reads for a letter, "£" for an f, one in twelve at most.)
      const signs = (v.match(/[^\x20-\x7E]/g) ?? []).length;
      const bare = signs <= Math.max(1, Math.floor(v.length / 12)) ? v.replace(/[^\x20-\x7E]/g, '') : v;
      if (!name || COOKIE_ATTRIBUTE.test(name.trim()) || v.length < 12 || !/^[A-Za-z0-9+/=_.%~:|-]+$/.test(bare) || !/\d/.test(v) || !/[A-Za-z]/.test(v)) continue;
      if (/^[A-Za-z]{0,4}\d*(?:\.\d+)+$/.test(v)) continue;
      const vs = start + from + (value.length - value.trimStart().length) + (value.trimStart().startsWith('"') || value.trimStart().startsWith("'") ? 1 : 0);
      yield [vs, vs + v.length];
    }
  }
}

/** A query parameter's name that says its value is a signature or a credential. */
const SIGNED_PARAM = /^(?:sig|signature|x-(?:amz|goog)-signature|x-amz-security-token|x-goog-credential)$/i;

/**
 * The values of a URL's signature and credential parameters (url-param above), with what OCR split
 * off them: pieces right after on the line (a space OCR put inside), and, when the value reaches the
 * line's end, the pieces that start the lines below (a link that wraps: break-all text, a terminal).
 * A piece that is a plain word ends it, as does the next parameter's &.
 */
function* urlParams(text: string): Iterable<[number, number]> {
  const PIECE = /^[A-Za-z0-9%:+/=_.~-]+/;
  const plainWord = (p: string) => /^(?:[a-z]{2,}|[A-Z][a-z]+)[.,:;]?$/.test(p);
  for (const m of text.matchAll(/[?&]([A-Za-z][\w.-]{1,40})=([A-Za-z0-9%:+/=_.~-]*)/g)) {
    const name = m[1] as string;
    if (!SIGNED_PARAM.test(name) && !secretName(name)) continue;
    const from = m.index + m[0].length - (m[2] as string).length;
    let end = m.index + m[0].length;
    let value = m[2] as string;
    for (let lines = 0, at = end; lines < 6 && !/(?:=|%3D)$/i.test(value); ) {
      const ch = text[at];
      if (ch === ' ' || ch === '\n') {
        if (ch === '\n') lines++;
        const piece = PIECE.exec(text.slice(at + 1))?.[0];
        const after = text[at + 1 + (piece?.length ?? 0)];
        if (!piece || plainWord(piece) || (after !== undefined && !/[\s&]/.test(after))) break;
        value += piece;
        at = end = at + 1 + piece.length;
        if (after === '&') break;
        continue;
      }
      break;
    }
    const packed = value.replace(/%:?[0-9A-F]{2}/gi, '');
    if (packed.length >= 12 && /[A-Za-z]/.test(packed) && /\d/.test(packed)) yield [from, end];
  }
}

/** Where a link starts on a line, as OCR reads its scheme ("https: //", "ttps:/", "www."). */
const LINK_START = /(?:^|[\s(<"'“‘])((?:[a-z]{0,2}t{1,2}ps?[:;]? ?\/\/?|www\.)\S)/gim;

/**
 * A link as OCR reads it, from `start` on its line, without the spaces OCR put in it ("https:
 * //hooks. slack. con/…/Q5T JUECWYPJIYT"): across a space after a dot, a colon, a slash or a sign,
 * or before a piece that is no plain word. With the text's index of each of its characters.
 */
function linkFrom(text: string, start: number): { link: string; from: number[]; end: number } {
  const plain = /^[A-Za-z][a-z]*[.,:;!?)]*$/;
  let link = '';
  const from: number[] = [];
  let i = start;
  for (; i < text.length && text[i] !== '\n'; i++) {
    if (text[i] === ' ') {
      const rest = /^ (\S+)/.exec(text.slice(i))?.[1] ?? '';
      if (!rest || !(/[.:/=&?#_-]$/.test(link) || /^[./?&=#_-]/.test(rest) || !plain.test(rest))) break;
      continue;
    }
    link += text[i];
    from.push(i);
  }
  return { link, from, end: i };
}

/**
 * The random parts of links that pass through a secret's place (not a webAddress): after a host's
 * label or a path's word that names one (hooks., /reset-password/, /invite/, /webhooks/), each path
 * segment or query value of 8 or more characters with digits, or both cases, in it. A link as OCR
 * reads it, spaces and all ("https: //hooks. slack. con/services/…/Q5T JUECWYPJIYT 3gaq…"): from
 * its scheme, across a space after a dot, a colon, a slash or a sign, or before a piece that is no
 * plain word.
 */
function* capabilityLinkParts(text: string): Iterable<[number, number]> {
  for (const m of text.matchAll(LINK_START)) {
    const { link, from } = linkFrom(text, m.index + m[0].length - (m[1] as string).length);
    const trimmed = link.replace(/[)"'“”‘’.,;>\]]+$/, '');
    if (webAddress(trimmed)) continue;
    let place = false;
    // (Its scheme and host, then its path, query and fragment.)
    const hostEnd = (/^(?:[^/]*\/\/)?[^/?#]*/.exec(trimmed)?.[0] ?? '').length;
    const parts = [...trimmed.matchAll(/[^/?&=#:]+/g)];
    for (const [n, part] of parts.entries()) {
      const p = part[0];
      if (!place) {
        // (An account's number in the path and a random segment after it is a key in the address —
        // an inbound webhook's /rest/1/<token>/ — whatever the words before say.)
        place = part.index < hostEnd ? secretHost(p) : secretPlace(p) || (/^\d{1,12}$/.test(p) && trimmed[part.index + p.length] === '/' && pathToken(parts[n + 1]?.[0] ?? ''));
        continue;
      }
      const at = part.index as number;
      if (p.length >= 8 && (/\d/.test(p) || (/[a-z]/.test(p) && /[A-Z]/.test(p) && !/^[A-Z][a-z]+$/.test(p))) && /[A-Za-z]/.test(p)) yield [from[at] as number, (from[at + p.length - 1] as number) + 1];
    }
  }
}

/** Words of a sentence, not of a generated passphrase (English, and the languages localWords.ts reads). */
const SENTENCE_WORDS = new Set(['the', 'a', 'an', 'is', 'are', 'was', 'be', 'been', 'in', 'on', 'at', 'of', 'to', 'by', 'for', 'with', 'from', 'this', 'that', 'your', 'you', 'it', 'not', 'will', 'can', 'shown', 'see', 'set', 'ist', 'wird', 'im', 'der', 'die', 'das', 'und', 'nicht', 'le', 'la', 'les', 'est', 'dans', 'du', 'des', 'el', 'los', 'es', 'en', 'del', 'se', 'o', 'os', 'no', 'na', 'il', 'di', 'het', 'een', 'wordt']);

/** Account names people write beside a password ("admin / …", "root:…"). */
const LOGIN_NAMES = /^(?:admin|administrator|root|superuser|sysadmin|guest|demo|test|tester|user|ubuntu|pi|postgres|mysql|sa|deploy|deployer|operator|support|service|ci|bot|webmaster|staff|editor|manager)\d{0,3}$/i;
/** Words before a pair on its line that say it is a login. */
const LOGIN_WORDS = /\b(?:log[- ]?in|sign[- ]?in|user(?:name)?|account|credentials?|creds|password|passwd|pw|admin|console|panel|portal)\b/i;

/**
 * Whether a word looks like a password someone chose or was given: 6–64 characters, letters with
 * digits, symbols or capitals inside; not a path, a URL, a date, a version, a number or a word.
 */
export function passwordShaped(value: string): boolean {
  const v = value.replace(/[.,;)]+$/, '');
  if (v.length < 4 || v.length > 64 || !/[A-Za-z]/.test(v)) return false;
  if (/:\/\/|\/|\\|^v?\d+\.\d+|^\d{1,4}[-.]\d{1,2}[-.]\d{1,4}$/.test(v)) return false;
  if (NOT_VALUES.has(v.toLowerCase())) return false;
  if (/^[A-Za-z_$][\w$.]*\(/.test(v)) return false;
  return /\d/.test(v) || /[^A-Za-z0-9]/.test(v) || /.[A-Z]/.test(v);
}

/** Words of a clause that say what follows is about the secret, not the secret: a setting, an identifier, a place. */
const CLAUSE_NOT_SECRET = /\b(?:reset|forgot|forgotten|change|changed|rotate|rotated|expire[sd]?|expiry|length|policy|hint|strength|requirements?|manager|field|prompt|url|link|page|id|ids|hash|fingerprint|format|type|name)\b/i;

/**
 * Whether the clause before a colon or an "is" names a secret: a word or two of it is a secret's name
 * (secretName: "wifi password", "api token", "db password"), none says an identifier or a setting,
 * and it is a clause (eight words at most), not a paragraph.
 */
function namedInClause(clause: string): boolean {
  const words = clause.trim().split(/\s+/).filter(Boolean).slice(-8);
  // (A clause that ends in a preposition says where the secret goes, not what it is: "Enter your
  // credentials to connect to: fileserver01".)
  if (!words.length || CLAUSE_NOT_SECRET.test(words.join(' ')) || /^(?:to|at|on|from|for|with|by|in|into|via|of|the|a|an)$/i.test(words.at(-1) as string)) return false;
  return words.some((w, i) => secretName(w) || (i > 0 && secretName(`${words[i - 1] as string} ${w}`)));
}

/** Whether a value said after a secret's name is one: a password's shape with a digit or a sign, not a word, a path, a URL or a time. */
function saidValue(value: string): boolean {
  const v = value.replace(/[.,;:!?)]+$/, '');
  if (v.length < 6 || !passwordShaped(v) || /^[A-Za-z_$][\w$.]*\(|\$\{|^\d{1,2}:\d{2}/.test(v)) return false;
  return /\d/.test(v) && /[A-Za-z]/.test(v) || /[^A-Za-z0-9]/.test(v.slice(1)) && /[A-Za-z]/.test(v) || generatedLetters(v);
}

/**
 * Letters alone, as a generator mixes them ("QfmMfTKaCSHsSyDb", a game server's rcon password; its
 * digits read as letters too): ten or more, both cases changing often, few vowels — not a name in
 * camelCase or PascalCase ("getHTTPResponseCode"), whose words have their vowels.
 */
export function generatedLetters(v: string): boolean {
  if (!/^[A-Za-z]{10,64}$/.test(v) || !/[a-z]/.test(v) || !/[A-Z]/.test(v.slice(1))) return false;
  const switches = (v.match(/[a-z](?=[A-Z])|[A-Z](?=[a-z])/g) ?? []).length;
  return switches >= 4 && v.replace(/[^aeiouAEIOU]/g, '').length < v.length * 0.25;
}

/** What a code opens, or the act of opening it, as a sentence names it (codesInSentences). */
const OPENS = String.raw`(?:(?:d|cl)oors?|gates?|keypads?|key ?pads?|alarms?|lock ?box(?:es)?|key ?safes?|key ?box(?:es)?|safes?|garages?|padlocks?|locks?|lockers?|buildings?|entrance|entry|intercom|buzzer|disarm|unlock|deactivate)`;
/** Words before "code" that make it no code to keep: a place's, an error's, a product's, a discount's. */
export const NOT_CODE = /\b(?:zip|postal|post|postcode|area|country|dialing|dialling|error|status|exit|return|response|http|source|promo|promotional|discount|coupon|voucher|gift|product|item|tracking|reference|ref|order|booking|qr|bar|color|colour|course|class|tax|sort|swift|bank|branch|airport|language|region|currency|dress)\s*$/i;
/** A number a code is: 4–8 digits, or two groups of three; not a date's, a decimal's or a time's part. */
const CODE_NUMBER = String.raw`(?<![\w.,/-])(\d{3}[ -]\d{3}|\d{4,8})(?![\w]|[.,/:-]\d)`;

/**
 * Codes that open something, said in a sentence of a message: a number after "code", "PIN" or
 * "combination" where the sentence says what it opens ("The building door has a keypad: code
 * 71721 then #", "the lockbox combination is 4821"), a number after the act of opening with it
 * ("disarm with 8456 on the panel", "unlock the gate by typing 1234"), a number to enter where the
 * sentence names what it opens ("punch in 4821 at the keypad"), and a PIN or passcode named a few
 * words before its colon or "is" ("PIN for the student card: 9107"). A number needs such words next
 * to it; one alone, or after a zip, an error or an order code, is none.
 */
function* codesInSentences(text: string): Iterable<[number, number]> {
  for (const sentence of text.matchAll(/[^\n.!?;]+(?:[.!?;](?=\d)[^\n.!?;]*)*/g)) {
    const s = sentence[0];
    const at = sentence.index;
    const opens = new RegExp(String.raw`\b${OPENS}\b`, 'i').test(s);
    const yielded = new Set<number>();
    const take = function* (m: RegExpExecArray, v = m.at(-1) as string) {
      const from = at + m.index + m[0].length - v.length;
      if (yielded.has(from)) return;
      yielded.add(from);
      yield [from, from + v.length] as [number, number];
    };
    // (a) "code", "PIN", "passcode", "combination" right before it ("code 71721", "PIN is 4821", "combination: 0451").
    for (const m of s.matchAll(new RegExp(String.raw`\b(code|combination|combo|pin|passcode|pin[- ]?code)\s*(?:(?:is|was|=|:|-)\s*)?${CODE_NUMBER}`, 'gi'))) {
      const named = m[1] as string;
      if (/^(?:code|combination|combo)$/i.test(named) && (!opens || NOT_CODE.test(s.slice(0, m.index)))) continue;
      yield* take(m);
    }
    // (b) The act of opening with it: "disarm with 8456", "unlock it using 1234", "open the gate by typing 1234".
    for (const m of s.matchAll(new RegExp(String.raw`\b(?:disarm|unlock|unset|deactivate|open)\b[^\d]{0,40}?\b(?:with|using|via|by\s+(?:entering|typing|pressing|dialing|dialling|punching\s+in|keying\s+in))\s+(?:(?:the|code|pin|passcode)\s+){0,2}${CODE_NUMBER}`, 'gi'))) {
      if (/^(?:open)/i.test(m[0]) && !opens) continue;
      yield* take(m);
    }
    // (c) A number to enter where the sentence names what it opens: "punch in 4821 at the keypad", "enter 1234 to disarm".
    if (opens) for (const m of s.matchAll(new RegExp(String.raw`\b(?:enter|type|press|dial|punch\s+in|key\s+in|tap\s+in)\s+${CODE_NUMBER}(?!\s*(?:times|seconds|secs|minutes|mins|points|coins|credits|px|ms|mb|gb|kb|km|m|%))`, 'gi'))) yield* take(m);
    // (d) A PIN or passcode named a few words before its colon or "is" ("PIN for the student card: 9107").
    for (const m of s.matchAll(new RegExp(String.raw`\b(?:pin|pins|passcode|puk2?|pin[- ]?code)\b([^\d:\n]{1,40}?)(?::|\s(?:is|was))\s*${CODE_NUMBER}`, 'gi'))) {
      const between = m[1] as string;
      if (between.trim().split(/\s+/).length > 6 || CLAUSE_NOT_SECRET.test(between) || /\b(?:attempts?|tries|remaining|digits?|characters?|count|number of)\b/i.test(between)) continue;
      yield* take(m);
    }
  }
}

/** A text table's column separator as OCR reads it: a bar, a box-drawing bar, a broken bar. */
const TABLE_BAR = /\s[|│┃¦]\s|^[|│┃¦]\s|\s[|│┃¦]$/;

/**
 * The cells of text tables' columns whose header names a secret (the table-column rule). A header is
 * a line of three cells or more between bars, each a caption (a few words, no digits); a column's
 * header names a secret when its words do (secretName: "Token", "API key", "Secret") or it is "Key"
 * alone — not in a table of keys and values, whose Key column holds names. The rows are the lines
 * below with as many cells, give or take one, down to the first that has not.
 */
function* tableColumns(text: string): Iterable<[number, number]> {
  const lines = text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  const cellsOf = (line: string) => {
    const out: Array<{ text: string; from: number }> = [];
    const re = /[^|│┃¦]+/g;
    for (const m of line.matchAll(re)) {
      const lead = (/^\s*/.exec(m[0]) as RegExpExecArray)[0].length;
      out.push({ text: m[0].trim(), from: m.index + lead });
    }
    return out.filter((c, i, all) => c.text || (i > 0 && i < all.length - 1));
  };
  for (let li = 0; li < lines.length; li++) {
    const head = lines[li] as string;
    if (!TABLE_BAR.test(head)) continue;
    const heads = cellsOf(head);
    if (heads.length < 3 || !heads.every((c) => /^[A-Za-z][A-Za-z ._/-]{0,30}$/.test(c.text) && c.text.split(/\s+/).length <= 3)) continue;
    const kv = heads.some((c) => /^values?$/i.test(c.text));
    const secret = heads.map((c) => !PUBLIC_HEADER.test(c.text) && (secretName(c.text) || (!kv && /^keys?$/i.test(c.text))));
    if (!secret.some(Boolean)) continue;
    for (let ri = li + 1; ri < lines.length; ri++) {
      const row = lines[ri] as string;
      const cells = cellsOf(row);
      if (!TABLE_BAR.test(row) || Math.abs(cells.length - heads.length) > 1) break;
      // (A cell more or less than the header — its first caption, "ID", lost to OCR — counts from the right.)
      const shift = cells.length - heads.length;
      for (const [ci, c] of cells.entries()) {
        if (!secret[ci - shift]) continue;
        // (A scrap OCR read at its end, "]" for a "c", is the value's; so is a space it read inside, two at most.)
        const v = c.text.replace(/[\]|[¢£€]$/, '');
        const packed = v.replace(/[¢£€]|\s/g, '');
        if ((v.match(/\s/g) ?? []).length > 2 || packed.length < 12 || !/^[A-Za-z0-9+/=_.~-]+$/.test(packed) || !/\d/.test(packed) || !/[A-Za-z]/.test(packed) || dottedName(packed)) continue;
        yield [(starts[ri] as number) + c.from, (starts[ri] as number) + c.from + c.text.length];
      }
    }
  }
}
/** A column header that names a public thing: an id, a fingerprint, a hash, a public key. */
const PUBLIC_HEADER = /\b(?:ids?|identifier|public|pub|fingerprint|hash|digest|sha\d*|names?|types?|prefix|hint)\b/i;

/** Codes after the caption that names them on their line (the code-list rule). */
function* codeLists(text: string): Iterable<[number, number]> {
  // (A remark in brackets may stand between the caption and its colon: "Backup codes (Discord): 0kby663i".)
  for (const m of text.matchAll(/\b(?:recovery|backup|scratch|emergency|one[- ]time|2fa|mfa)\s+codes?\b(?:\s*\([^)\n]{1,30}\))?\s*[:=-]?\s*/gi)) {
    let at = m.index + m[0].length;
    for (;;) {
      const c = /^["'`(]?([A-Za-z0-9]{3,8}(?:[- ][A-Za-z0-9]{3,8})?|[A-Za-z0-9]{6,12})["'`)]?(?=[,;\s]|$)/.exec(text.slice(at));
      if (!c) break;
      const code = c[1] as string;
      const packed = code.replace(/[- ]/g, '');
      if (packed.length < 6 || packed.length > 16 || !/\d/.test(packed) || (/ /.test(code) && !/\d/.test(code.split(' ')[1] as string))) break;
      const start = at + c[0].indexOf(code);
      yield [start, start + code.length];
      at += c[0].length;
      const sep = /^[ \t]*[,;]?[ \t]*/.exec(text.slice(at)) as RegExpExecArray;
      if (!sep[0].length) break;
      at += sep[0].length;
    }
  }
}

/** Values on a line after a name that says they are secret (namedBefore, randomValue). */
function* namedValues(text: string): Iterable<[number, number]> {
  for (const m of text.matchAll(/\S{8,}/g)) {
    const token = m[0];
    const lead = (/^["'`(]*/.exec(token) as RegExpExecArray)[0].length;
    const trail = (/["'`),;]*$/.exec(token) as RegExpExecArray)[0].length;
    const from = m.index + lead;
    const value = token.slice(lead, token.length - trail);
    const line = text.slice(text.lastIndexOf('\n', m.index - 1) + 1, m.index);
    if (randomValue(value) && namedBefore(line)) {
      yield [from, from + value.length];
      continue;
    }
    // name=value or name:value in one run (OCR closed the space): the name is the run's start.
    const join = /^([A-Za-z][^:=\s]*)(?::=|=>|[:=])["'`]?/.exec(value);
    if (join && randomValue(value.slice(join[0].length)) && namedBefore(`${line}${join[1] as string}`)) yield [from + join[0].length, from + value.length];
  }
}

/**
 * Whether a run is part of a public identifier as OCR read it: the whole of the token it lies in (an
 * odd sign OCR read, an é or a £, cuts a run short of it), or that token with the one before or after
 * it on its line where OCR cut the identifier at a space ("age1vcé…tt 6 jmB8udhy…").
 */
export function inIdentifier(text: string, start: number, end: number): boolean {
  while (start > 0 && !/\s/.test(text[start - 1] as string)) start--;
  while (end < text.length && !/\s/.test(text[end] as string)) end++;
  const token = text.slice(start, end);
  if (publicIdentifier(token)) return true;
  // Up to three pieces either side, on its line, with no quote or comma (a value's end) between.
  const piece = /^[^\s"'`“”,;]+$/;
  const line = text.slice(Math.max(0, start - 200), start).split('\n');
  const befores = line.at(-1)?.split(' ').slice(0, -1).reverse() ?? [];
  const afters = text.slice(end, end + 200).split('\n')[0]?.split(' ').slice(1) ?? [];
  const take = (xs: string[]) => {
    const out: string[] = [];
    for (const x of xs.slice(0, 3)) {
      if (!piece.test(x)) break;
      out.push(x);
    }
    return out;
  };
  const prev = take(befores).reverse(), next = take(afters);
  // A publishable token OCR cut into more pieces than that ("pk. eyJ 11301 YWNtZS1t…] hyd RiNHgy…",
  // a map vendor's public token on a site's config page): its prefix up to eight pieces back on its
  // line, nothing but base64 between (OCR's stray signs for a letter — "]", "|", "§" — one in ten at most).
  const pk = befores.slice(0, 8).findIndex((p) => /^pk[._]/.test(p));
  if (pk >= 0) {
    const run = [...befores.slice(0, pk + 1).reverse(), token].join('');
    const bare = run.replace(/[^\w+/=.-]/g, '');
    if (bare.length >= run.length * 0.9 && publicIdentifier(bare)) return true;
  }
  // A hash that wraps (break-all text, a narrow pane): where its pieces reach back to the line's
  // start, the last piece of the line above when it opens a hash named by its algorithm and breaks
  // off there ("'sha" then "256-dA6v…", "'sha256-6uy9UpI" then "P9uy7atZ…").
  const lineStart = start - (line.at(-1)?.length ?? 0);
  // (Only over pieces of base64: a name and its colon before a value start a line of their own.)
  if (prev.length === befores.length && prev.every((p) => /^[A-Za-z0-9+/=_-]+$/.test(p)) && line.length > 1 && text[lineStart - 1] === '\n') {
    const head = (line.at(-2) ?? '').split(' ').at(-1) ?? '';
    // A web address that breaks off inside a query parameter's value (an ad click's gclid that wraps
    // in a history list; OCR reads its ? and & as a 7 and a 6 now and then): the value's rest, to the
    // token, is the address's, judged with its name.
    const above = text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1);
    const link = [...above.matchAll(LINK_START)].map((m) => linkFrom(above, m.index + m[0].length - (m[1] as string).length)).find((l) => l.end === above.length);
    if (link && /=[^\s&=/]{4,}$/.test(link.link) && webAddress(link.link + [...prev, token].join(''))) return true;
    if (HASH_HEAD.test(head)) prev.unshift(head);
  }
  // A typed id's underscore read as a space ("pi 3QUEC…", "cus HYUo…"): its prefix and the rest are one.
  const typed = prev.at(-1);
  // (Not a prefix that is a word as well: "prod Xk9f…" is a name and a value.)
  if (typed !== undefined && /^(?:pi|ch|cus|evt|req|acct|txn|seti|pm)$/.test(typed) && publicIdentifier(`${typed}_${token}`)) return true;
  for (let a = 0; a <= prev.length; a++) {
    for (let b = 0; b <= next.length; b++) {
      // (Not an ARN so joined: what follows one on its line is judged by inArn.)
      const joined = [...prev.slice(a), token, ...next.slice(0, b)].join('');
      if (prev.length - a + b > 0 && prev.length - a + b + 1 <= 4 && !ARN.test(joined) && publicIdentifier(joined)) return true;
    }
  }
  return false;
}

/** The start of a hash named by its algorithm, or of a page's nonce, broken off at a line's end ("'sha", "sha256-6uy9UpI"). */
const HASH_HEAD = /^["'‘’“”]?(?:sha(?:1|2|25|256|384|512|2S6|S12)?|(?:sha(?:1|256|384|512|2S6|S12)|nonce)-[A-Za-z0-9+/=_-]*)$/;

/**
 * Whether `value` (what follows `before` on its line) is part of an ARN: OCR reads a space into one
 * now and then — after a colon or a slash ("…:674944142140: instance/i-0…"), before a dash, or inside
 * its hex ("key/eedd2ce7 -99af 2cb8-224-…") — and a piece so cut off is still the ARN's. A value after
 * a space elsewhere (the next field of the CLI's text output: a date, a name, a secret's value) is not.
 */
function inArn(before: string, value: string): boolean {
  const starts = [...before.matchAll(/\ba(?:rn|m|rm):aws(?:-[a-z]+)*:/g)];
  const at = starts.at(-1)?.index;
  if (at === undefined) return false;
  const pieces = (before.slice(at) + value).split(' ');
  if (pieces.length > 4) return false;
  return pieces.every((p, i) => {
    if (/["'`“”,;]/.test(p.slice(0, i === pieces.length - 1 ? Math.max(0, p.length - value.length) + 1 : p.length))) return false;
    if (i === 0) return true;
    return /[:/]$/.test(pieces[i - 1] as string) || /^[-:/]/.test(p) || /^[0-9a-fA-F-]{3,}$/.test(p.replace(/["'“”,]+$/, ''));
  });
}

/** An SSH key's type on a line (as OCR reads ssh: "55h"), before its base64. */
const SSH_TYPE = /(?:^|\s)(?:[sS5$]{2}h-(?:ed2\S{4}|rsa|dss)(?=\s)|ecdsa-\S{4,}(?=\s)|sk-\S*@openssh)/;

let sshLinesOf: { text: string; lines: Array<{ start: number; end: number; public: boolean }> } | undefined;

/**
 * Which of these lines (top to bottom) are an SSH public key's (authorized_keys, known_hosts, a .pub
 * file): a line with a key's type or a key's base64 on it, or a line that continues one's base64
 * where it wraps (the line above ends in base64, with no comment after it, and this one starts with
 * more). A public key, its comment and a known_hosts line's hashed host are no secret.
 */
export function sshKeyLines(lines: readonly string[]): boolean[] {
  // (OCR cuts a wrapped line's base64 into pieces, some short, and reads scraps of ink at its ends —
  // "br", "?", "T+" — which are passed over.)
  const base64 = (w: string | undefined) => !!w && w.replace(/[^A-Za-z0-9+/=]/g, '').length >= w.length * 0.9;
  let open = false;
  return lines.map((line) => {
    const words = line.trim().split(/\s+/).map((w) => w.replace(/^["'“”‘’]+|[?:"'“”‘’]+$/g, '')).filter((w) => w.length >= 4);
    const own = SSH_TYPE.test(` ${line} `) || words.some((w) => sshPublicKey(w));
    const continued = open && base64(words[0]);
    // The next line continues this one's key only when this one ends in its base64 (no comment after it).
    open = (own || continued) && base64(words.at(-1));
    return own || continued;
  });
}

/** Whether the run at `at` is on an SSH public key's line (sshKeyLines). */
function onSshKeyLine(text: string, at: number): boolean {
  if (sshLinesOf?.text !== text) {
    const texts = text.split('\n');
    const flags = sshKeyLines(texts);
    let start = 0;
    const lines = texts.map((t, i) => {
      const line = { start, end: start + t.length, public: flags[i] as boolean };
      start += t.length + 1;
      return line;
    });
    sshLinesOf = { text, lines };
  }
  return sshLinesOf.lines.some((l) => l.public && at >= l.start && at <= l.end);
}

/**
 * Whether `at` lies inside an armoured block that is not secret — a public key, a certificate, a
 * signature (-----BEGIN PGP PUBLIC KEY BLOCK-----, BEGIN CERTIFICATE): its base64 lines are what
 * anyone may have. A private key's block is the pem rule's.
 */
function inPublicBlock(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 8000), at);
  const begin = before.lastIndexOf('BEGIN');
  if (begin < 0 || /END/.test(before.slice(begin))) return false;
  return /^BEGIN[A-Z ]*(?:PUBLIC\s*KEY|CERTIFICATE|SIGNATURE)/.test(before.slice(begin, begin + 60)) && !/PRIVATE/.test(before.slice(begin, begin + 60));
}

/**
 * An armour's name that says its body is public or no secret (a certificate, a public key, a
 * signature, a signed or an encrypted message, parameters, a request for a certificate); a private or
 * secret key's name never is.
 */
const PUBLIC_ARMOUR = /CERTIFICATE|PUBLIC|SIGNATURE|SIGNED|PARAMETERS|\bCRL\b|PKCS ?7|\bCMS\b|\bMESSAGE\b|REQUEST|ENCRYPTED\s+FILE/i;

/**
 * Armoured blocks whose body is secret: from the BEGIN line to the END line, or, when OCR garbled
 * the END line, to the last line of base64 or hex that follows. A PEM private key, and any armour
 * whose name does not say public — an OpenVPN static key ("-----BEGIN OpenVPN Static key V1-----"),
 * a licence ("----- BEGIN LICENSE -----", its lines of hex groups), a WireGuard or an age secret
 * in armour: the armour's name is the body's caption. Certificates, public keys, signatures and
 * signed or encrypted messages are not secret and are left.
 */
function* pemBlocks(text: string, privateKeys: boolean): Iterable<[number, number]> {
  // (OCR reads one of the five dashes as a long one now and then: "---—-END PGP PRIVATE KEY BLOCK";
  // a licence's armour has spaces inside its dashes, "----- BEGIN LICENSE -----".)
  // A private key's armour as OCR reads it may have lost its closing dashes or come out in small
  // letters ("-----BEGIN OPENSSH PRIVATE KEY", "-----begin rsa private key-----"): its name is enough.
  // Other armour needs both runs of dashes (an SQL comment's "-- BEGIN TRANSACTION" is none).
  const begin = privateKeys ? /[-—–]{2,}\s*BEGIN([A-Z ]*PRIVATE\s*KEY)\s*[-—–]*/gi : /[-—–]{2,}\s*BEGIN\s+([A-Za-z0-9][A-Za-z0-9 ._]{0,40}?)\s*[-—–]{2,}/g;
  for (const m of text.matchAll(begin)) {
    const name = m[1] as string;
    const privateKey = /PRIVATE\s*KEY/i.test(name);
    if (privateKey !== privateKeys || (!privateKey && !/SECRET/i.test(name) && PUBLIC_ARMOUR.test(name))) continue;
    const start = m.index ?? 0;
    let end = start + m[0].length;
    const endLine = privateKeys ? /[-—–]{2,}\s*END\b[A-Za-z0-9 ._]*[-—–]*/gi : /[-—–]{2,}\s*END\b[A-Za-z0-9 ._]*[-—–]*/g;
    endLine.lastIndex = end;
    const closing = endLine.exec(text);
    if (closing && closing.index - end < 8000) {
      end = closing.index + closing[0].length;
    } else {
      let at = text.indexOf('\n', end);
      while (at >= 0) {
        const next = text.indexOf('\n', at + 1);
        const line = text.slice(at + 1, next < 0 ? undefined : next).trim();
        // A base64 line as OCR reads it: a stray £ or ] among 64 characters does not end the key.
        const packed = line.replace(/\s/g, '');
        if (packed.length < 16 || packed.replace(/[^A-Za-z0-9+/=]/g, '').length < packed.length * 0.9) break;
        end = next < 0 ? text.length : next;
        at = next;
      }
    }
    yield [start, end];
  }
}

/** Glance's own rules over `text`, those of the categories that are on. */
/**
 * A short aside in words between a secret's name and its colon ("Backup codes (Discord):", "Password
 * (admin):", "API key (prod) =") made blank, the offsets kept: the name's rules read past it. (Words
 * only: a parenthesis with a digit in it may be the secret itself.)
 */
export function withoutAsides(text: string): string {
  return text.replace(/(?<=\S)\s+\((?:\p{L}[\p{L}.'’&-]*)(?: \p{L}[\p{L}.'’&-]*){0,2}\)(?=\s*[:=])/gu, (m) => ' '.repeat(m.length));
}

export function ruleFindings(text: string, categories: Readonly<Record<RedactCategory, boolean>>): Finding[] {
  const out: Finding[] = [];
  const plain = withoutAsides(text);
  const seen = new Set<string>();
  for (const r of RULES) {
    if (!categories[r.category]) continue;
    for (const [start, end] of plain === text ? r.find(text) : [...r.find(text), ...r.find(plain)]) {
      if (end <= start || seen.has(`${r.rule}:${start}:${end}`)) continue;
      seen.add(`${r.rule}:${start}:${end}`);
      // Inside an ARN a label is part of a name ("…:secret:prod/orders-db-NbKLaE", "key/<uuid>"), and
      // what follows it is no value: only a vendor's own shape counts there.
      if ((r.kind === 'password' || r.kind === 'secret' || r.kind === 'key-like text') && inArn(text.slice(text.lastIndexOf('\n', start - 1) + 1, start), text.slice(start, end))) continue;
      out.push({ start, end, kind: r.kind, rule: r.rule });
    }
  }
  return out;
}
