import { describe, expect, it } from 'vitest';
import { isThisComputer } from './thisComputer.ts';

describe('isThisComputer: the one table of what is this computer (architecture §3b)', () => {
  it.each([
    'http://127.0.0.1:11434',
    'http://127.8.9.10/v1',
    'http://127.1:11434', // the URL parser reads it as 127.0.0.1
    'http://0x7f.0.0.1:8080',
    'http://localhost:1234/v1',
    'http://LOCALHOST:1234',
    'http://[::1]:8080',
    'http://[0:0:0:0:0:0:0:1]/',
    '127.0.0.1:11434', // OLLAMA_HOST's host:port form
    'localhost',
  ])('%s is this computer', (endpoint) => {
    expect(isThisComputer(endpoint)).toBe(true);
  });

  it.each([
    'http://[::ffff:127.0.0.1]:11434', // IPv4-mapped: a dual-stack socket, not the loopback interface
    'http://[::ffff:7f00:1]:11434',
    'http://[2002:7f00:1::1]/', // 6to4 embedding 127.0.0.1: routed to a relay
    'http://[64:ff9b::7f00:1]/', // NAT64 embedding 127.0.0.1: routed to a translator
    'http://[::127.0.0.1]/',
    'http://gpu.localhost:11434', // a name: a resolver may answer anything
    'http://localhost.:11434',
    'http://localhost.example.com/',
    'http://192.168.1.20:11434',
    'http://10.0.0.2/v1',
    'http://0.0.0.0:11434',
    'https://api.openai.com/v1',
    'http://[fe80::1%25eth0]/',
    'not a url at all',
    '',
    undefined,
  ])('%s is remote', (endpoint) => {
    expect(isThisComputer(endpoint)).toBe(false);
  });
});
