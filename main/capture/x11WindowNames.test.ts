// A window that sets only the legacy WM_NAME and WM_CLASS (no _NET_WM_NAME) on a real Xvfb: the
// names are read from X, so an excluded app's window is known by them (issue 41).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXvfb, type XServer } from '../../test/fixtures/xvfb.ts';
import { withX11Connection } from './x11Connection.ts';
import { withX11Facts, x11WindowNames } from './x11WindowNames.ts';

let x: XServer;
beforeAll(async () => {
  x = await startXvfb({ width: 640, height: 480 });
});
afterAll(async () => {
  await x?.stop();
});

function createWindow(id: number, parent: number): Buffer {
  const req = Buffer.alloc(32);
  req.writeUInt8(1, 0); // CreateWindow, depth CopyFromParent
  req.writeUInt16LE(8, 2);
  req.writeUInt32LE(id, 4);
  req.writeUInt32LE(parent, 8);
  req.writeUInt16LE(100, 16);
  req.writeUInt16LE(80, 18);
  req.writeUInt16LE(1, 22); // InputOutput
  return req;
}

function setString(window: number, property: number, text: string): Buffer {
  const data = Buffer.from(text, 'latin1');
  const pad = (4 - (data.length % 4)) % 4;
  const req = Buffer.alloc(24 + data.length + pad);
  req.writeUInt8(18, 0); // ChangeProperty, Replace
  req.writeUInt16LE(req.length / 4, 2);
  req.writeUInt32LE(window, 4);
  req.writeUInt32LE(property, 8);
  req.writeUInt32LE(31, 12); // STRING
  req.writeUInt8(8, 16);
  req.writeUInt32LE(data.length, 20);
  data.copy(req, 24);
  return req;
}

describe('x11WindowNames', () => {
  it('reads WM_NAME and WM_CLASS of a window that has no _NET_WM_NAME, and fills the names node-screenshots left empty', async () => {
    await withX11Connection(x.display, { env: x.env }, async (conn) => {
      const id = conn.idBase | 1;
      conn.send(createWindow(id, conn.root));
      conn.send(setString(id, 39, 'Passwords.kdbx - KeePassXC'));
      conn.send(setString(id, 67, 'keepassxc\0KeePassXC\0'));
      // A round trip: the requests above are done when its reply comes.
      await conn.request(Buffer.from([43, 0, 1, 0])); // GetInputFocus
      const names = await x11WindowNames([id, conn.root + 99999], { env: x.env });
      expect(names.get(id)).toEqual({ wmName: 'Passwords.kdbx - KeePassXC', wmClass: ['keepassxc', 'KeePassXC'] });
      expect(names.get(conn.root + 99999)).toEqual({});
      const filled = await withX11Facts([{ id: String(id), app: '', title: '', focused: false, x: 0, y: 0, width: 100, height: 80 }], { env: x.env });
      expect(filled[0]).toMatchObject({ app: 'KeePassXC', title: 'Passwords.kdbx - KeePassXC' });
    });
  });
});
