import { config } from './config';

export function describe(): string {
  return `listening on ${config.host}:${config.port}`;
}
