// The accessibility bus (AT-SPI over D-Bus), spoken by dbus-next: pure JavaScript, no native module.
// Where the bus is: $AT_SPI_BUS_ADDRESS, else org.a11y.Bus.GetAddress on the session bus (what
// libatspi does). Every call carries the read's deadline: an application that stops answering costs
// at most the time left, and closing the connection drops whatever is still pending.
import dbus from 'dbus-next';
import { errorMessage } from '../errors.ts';

/** Why the bus cannot be reached, in words a person can act on. */
export class BusUnavailable extends Error {}

/**
 * A D-Bus address as dbus-next should open it. dbus-next opens `unix:path=` and `unix:abstract=`
 * through the optional native `usocket` module when it is installed; Node's own `net` speaks both
 * (an abstract name is a path starting with NUL on Linux), so they are rewritten to `unix:socket=`,
 * which dbus-next hands to `net`. Values are unescaped (D-Bus addresses %-escape bytes).
 */
export function netAddress(address: string): string {
  const out: string[] = [];
  for (const one of address.split(';')) {
    const colon = one.indexOf(':');
    if (colon < 0) continue;
    const family = one.slice(0, colon);
    const params = new Map<string, string>();
    for (const kv of one.slice(colon + 1).split(',')) {
      const eq = kv.indexOf('=');
      if (eq > 0) params.set(kv.slice(0, eq), decodeURIComponent(kv.slice(eq + 1)));
    }
    if (family === 'unix') {
      const path = params.get('path') ?? (params.has('abstract') ? `\u0000${params.get('abstract')}` : undefined);
      if (path !== undefined) out.push(`unix:socket=${path}`);
    } else if (family === 'tcp' && params.has('port')) {
      out.push(`tcp:host=${params.get('host') ?? 'localhost'},port=${params.get('port')}`);
    }
  }
  if (out.length === 0) throw new BusUnavailable(`the D-Bus address "${address.slice(0, 120)}" names no unix socket or tcp port`);
  // dbus-next tries only the first; the first that Node can open is the one given.
  return out[0]!;
}

export class AccessibilityBus {
  private readonly bus: dbus.MessageBus;
  private closed = false;

  private constructor(bus: dbus.MessageBus) {
    this.bus = bus;
    // A broken socket ends every pending call with this error rather than an unhandled event.
    bus.on('error', () => this.close());
  }

  /** Opens the accessibility bus, or throws BusUnavailable saying why. */
  static async open(env: NodeJS.ProcessEnv, deadline: Deadline): Promise<AccessibilityBus> {
    let address = env.AT_SPI_BUS_ADDRESS;
    if (!address) {
      const sessionAddress = env.DBUS_SESSION_BUS_ADDRESS;
      if (!sessionAddress) throw new BusUnavailable('there is no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)');
      const session = await AccessibilityBus.connect(sessionAddress, deadline, 'the session D-Bus');
      try {
        const reply = await session.call('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress', '', [], deadline);
        address = typeof reply[0] === 'string' ? reply[0] : '';
      } catch (error) {
        if (error instanceof TimedOut) throw error;
        throw new BusUnavailable(`the session D-Bus has no accessibility bus (org.a11y.Bus: ${errorMessage(error)}); is at-spi2-core installed?`);
      } finally {
        session.close();
      }
      if (!address) throw new BusUnavailable('the session D-Bus gave no accessibility bus address');
    }
    return AccessibilityBus.connect(address, deadline, 'the accessibility bus');
  }

  private static async connect(address: string, deadline: Deadline, what: string): Promise<AccessibilityBus> {
    let bus: dbus.MessageBus;
    try {
      bus = dbus.sessionBus({ busAddress: netAddress(address) });
    } catch (error) {
      throw error instanceof BusUnavailable ? error : new BusUnavailable(`${what} cannot be opened: ${errorMessage(error)}`);
    }
    const ready = new Promise<void>((resolve, reject) => {
      bus.once('connect', () => resolve());
      bus.once('error', (error: unknown) => reject(new BusUnavailable(`${what} cannot be reached: ${errorMessage(error)}`)));
    });
    try {
      await deadline.race(ready);
    } catch (error) {
      try {
        bus.disconnect();
      } catch {
        // Never opened.
      }
      throw error;
    }
    return new AccessibilityBus(bus);
  }

  /** One method call; its reply body, or a DBusError / TimedOut. */
  async call(destination: string, path: string, iface: string, member: string, signature: string, body: unknown[], deadline: Deadline): Promise<unknown[]> {
    if (this.closed) throw new TimedOut();
    const message = new dbus.Message({ destination, path, interface: iface, member, signature, body });
    const reply = await deadline.race(this.bus.call(message));
    return reply?.body ?? [];
  }

  /** A property's value (unwrapped from its variant). */
  async property(destination: string, path: string, iface: string, name: string, deadline: Deadline): Promise<unknown> {
    const [variant] = await this.call(destination, path, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [iface, name], deadline);
    return variant instanceof dbus.Variant ? variant.value : variant;
  }

  /** Every property of an interface at once (Properties.GetAll), unwrapped from their variants. */
  async properties(destination: string, path: string, iface: string, deadline: Deadline): Promise<Record<string, unknown>> {
    const [all] = await this.call(destination, path, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [iface], deadline);
    const out: Record<string, unknown> = {};
    if (all && typeof all === 'object') for (const [key, value] of Object.entries(all)) out[key] = value instanceof dbus.Variant ? value.value : value;
    return out;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.bus.disconnect();
    } catch {
      // Already gone.
    }
  }
}

/** The read's time limit ran out (or its signal fired): whatever is pending is abandoned. */
export class TimedOut extends Error {
  constructor() {
    super('timed out');
  }
}

/** One time limit for a whole read, shared by every call in it. */
export class Deadline {
  private readonly expired: Promise<never>;
  private timer: NodeJS.Timeout | undefined;
  private done = false;

  constructor(ms: number, signal?: AbortSignal) {
    this.expired = new Promise<never>((_, reject) => {
      const stop = () => {
        this.done = true;
        reject(new TimedOut());
      };
      this.timer = setTimeout(stop, ms);
      if (signal?.aborted) stop();
      signal?.addEventListener('abort', stop, { once: true });
    });
    this.expired.catch(() => undefined);
  }

  get passed(): boolean {
    return this.done;
  }

  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race([work, this.expired]);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
