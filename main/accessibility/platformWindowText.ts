// Which adapter of the WindowText port this platform gets (architecture §7 "A window's own words").
import { AtspiWindowText } from './atspiWindowText.ts';
import { unavailableOn, type FindSecrets, type WindowText } from './windowText.ts';

/** `find`: the secret rules, so each secret in a window's words is located with its own box. */
export function windowTextFor(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, options: { find?: FindSecrets } = {}): WindowText {
  // AT-SPI is the desktop accessibility bus of Linux and the BSDs.
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') return new AtspiWindowText(env, options);
  return unavailableOn(platform);
}
