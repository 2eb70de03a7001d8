// The tray icon: Screenshot and ask, Open Glance, Install command in PATH, Quit. On macOS, images dropped on it are
// attached in the chat window.
import { Menu, Tray, nativeImage } from 'electron';

type TrayActions = {
  screenshotAndAsk: () => void;
  openMain: () => void;
  quit: () => void;
  dropFiles: (paths: string[]) => void;
  /** Puts a `glance` command on PATH for MCP clients (main/installCommand.ts). */
  installCommand: () => void;
  /** The hotkey as the menu shows it ("Ctrl+Shift+Space"), if registered. */
  hotkeyLabel: () => string | undefined;
};

/** The tray and a function that rebuilds its menu (after the hotkey changes). */
export function createTray(iconPath: string | undefined, actions: TrayActions): { tray: Tray; refreshMenu: () => void } {
  const image = iconPath ? nativeImage.createFromPath(iconPath) : nativeImage.createEmpty();
  if (process.platform === 'darwin') image.setTemplateImage(true);
  const tray = new Tray(image);
  tray.setToolTip('Glance');
  const refresh = () => {
    const hotkey = actions.hotkeyLabel();
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: hotkey ? `Screenshot and ask (${hotkey})` : 'Screenshot and ask', click: actions.screenshotAndAsk },
        { label: 'Open Glance', click: actions.openMain },
        { type: 'separator' },
        { label: 'Install command in PATH', click: actions.installCommand },
        { type: 'separator' },
        { label: 'Quit Glance', click: actions.quit },
      ]),
    );
  };
  refresh();
  // Windows and Linux: a click opens the chat; macOS shows the menu.
  if (process.platform !== 'darwin') tray.on('click', actions.openMain);
  tray.on('drop-files', (_event, files) => actions.dropFiles(files));
  return { tray, refreshMenu: refresh };
}
