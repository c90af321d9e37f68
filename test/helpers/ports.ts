/**
 * A port for a server that a test stops and starts again on the same port. Ports the kernel hands
 * out by itself (to `listen(0)` and to outgoing connections) come from the ephemeral range, so a
 * port in the ephemeral range can be taken by anyone between the stop and the start; one below it
 * is only ever taken by a process that asks for it by number.
 */
import fs from 'node:fs';
import net from 'node:net';

/** The kernel's ephemeral range (Linux); the IANA one elsewhere. */
function ephemeralRange(): {low: number; high: number} {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low !== undefined && high !== undefined && low > 1024 && high >= low) {
      return {low, high};
    }
  } catch {
    // Not Linux.
  }
  return {low: 49152, high: 65535};
}

function isFree(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free loopback port below the ephemeral range (and above the privileged ports). */
export async function restartablePort(): Promise<number> {
  const {low} = ephemeralRange();
  const first = Math.max(1025, low - 12_000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = first + Math.floor(Math.random() * (low - first));
    if (await isFree(port)) {
      return port;
    }
  }
  throw new Error(`No free port between ${first} and ${low} for the restart test.`);
}
