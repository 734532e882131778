// The build fails here on purpose (TS2322): a port read from the environment is a string.
// Fix: `Number(process.env.PORT ?? 8080)` — then Engram remembers the error and its fix.
declare const process: { env: Record<string, string | undefined> };

export interface Config {
  port: number;
  host: string;
}

export const config: Config = {
  port: process.env.PORT ?? '8080',
  host: '127.0.0.1',
};
