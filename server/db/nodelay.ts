/**
 * TCP_NODELAY for neo4j-driver 5.x sockets.
 *
 * neo4j-driver 5.28 opens its Bolt sockets with Nagle's algorithm on. A query whose
 * parameters span more than one TCP segment (a 384-float embedding does) then waits for
 * the server's delayed ACK before its last segment leaves: ~40 ms on every retrieval.
 * The 6.x driver sets TCP_NODELAY itself; on 5.x we set it on each channel's socket the
 * first time the channel writes (node sockets accept setNoDelay before they connect).
 *
 * The channel class is the driver's own (resolved from neo4j-driver's location, so the
 * same module instance the driver uses). If its layout ever changes, this does nothing.
 */
import { createRequire } from 'node:module';

interface ChannelProto {
  write(buffer: unknown): void;
  __graphRecallNoDelay?: true;
}
interface ChannelInstance {
  _conn?: { setNoDelay?: (on: boolean) => unknown };
  __noDelay?: boolean;
}

let enabled = true;
let installed: boolean | undefined;

/** Whether channels opened from now on get TCP_NODELAY (default true; the bench turns it off to compare). */
export function setNoDelayForNewConnections(on: boolean): void {
  enabled = on;
}

/** Patches the driver's Node channel once; returns whether the patch is in place. */
export function installNoDelay(): boolean {
  if (installed !== undefined) return installed;
  installed = false;
  try {
    const req = createRequire(createRequire(import.meta.url).resolve('neo4j-driver'));
    const mod = req('neo4j-driver-bolt-connection/lib/channel/node/node-channel.js') as { default?: { prototype: ChannelProto } };
    const proto = mod.default?.prototype;
    if (!proto || typeof proto.write !== 'function') return false;
    if (!proto.__graphRecallNoDelay) {
      const write = proto.write;
      proto.write = function (this: ChannelInstance, buffer: unknown) {
        if (this.__noDelay === undefined) {
          this.__noDelay = enabled;
          if (enabled) this._conn?.setNoDelay?.(true);
        }
        return write.call(this, buffer);
      };
      proto.__graphRecallNoDelay = true;
    }
    installed = true;
  } catch {
    installed = false;
  }
  return installed;
}
