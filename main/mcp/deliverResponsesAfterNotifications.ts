// A workaround for the SDK's message ordering, applied to every client transport.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * The SDK (1.32.2) runs notification handlers a microtask late but response handlers at once,
 * so a tool's last progress notification, read in the same chunk as its result, arrived after
 * the request was settled and was dropped ("unknown token"). Holding each response back by one
 * microtask restores the wire order.
 */
export function deliverResponsesAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage?.bind(transport);
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    if ('id' in message && !('method' in message)) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}
