// Which adapter of the WindowText port this platform gets (architecture §7 "A window's own words").
import { AtspiWindowText } from './atspiWindowText.ts';
import { unavailableOn, type WindowText } from './windowText.ts';

export function windowTextFor(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): WindowText {
  // AT-SPI is the desktop accessibility bus of Linux and the BSDs.
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') return new AtspiWindowText(env);
  return unavailableOn(platform);
}
