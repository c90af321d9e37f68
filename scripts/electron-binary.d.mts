// Types for the tests that import electron-binary.mjs.
export const STALL_MS: number;

export type ElectronInstall =
  | {state: 'installed'; binary: string}
  | {state: 'missing'; binary: string; version: string}
  | {state: 'unusable'; reason: string};

export interface Progress {
  transferred: number;
  total: number | null;
}

export type DownloadResult =
  | {ok: true; binary: string}
  | {ok: false; cancelled: true}
  | {ok: false; reason: string; cancelled?: undefined};

export function platformPath(platform: string): string;
export function electronInstall(
  packageDir: string,
  env: Record<string, string | undefined>,
  platform?: NodeJS.Platform,
): ElectronInstall;
export function formatBytes(bytes: number): string;
export function progressLine(version: string, transferred: number, total: number | null): string;
export function downloadFailure(error: unknown): string;
export function downloadElectron(options: {
  packageDir: string;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  onProgress: (progress: Progress) => void;
  stallMs?: number;
}): Promise<DownloadResult>;
export function progressWriter(
  stream: {isTTY?: boolean; write(text: string): unknown},
  version: string,
  now?: () => number,
): {update(progress: Progress): void; end(): void};
