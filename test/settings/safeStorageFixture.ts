// Stands in for Electron's `safeStorage` (its binary cannot run here — the one allowed
// boundary fake). It really encrypts, with AES-256-GCM under a key held in memory like the
// OS keyring would, so ciphertext on disk is ciphertext.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SafeStorageLike } from '../../main/settings/secretStore.ts';

export type FakeSafeStorage = SafeStorageLike & {
  /** Simulate a key rotation: the next decrypt asks for re-encryption. */
  rotate(): void;
  encryptCalls: number;
};

export function fakeSafeStorage(options: { backend?: string; available?: boolean; key?: Buffer } = {}): FakeSafeStorage {
  let key = options.key ?? randomBytes(32);
  let previous: Buffer | undefined;
  const encrypt = (plain: string, k: Buffer) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', k, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  };
  const decrypt = (data: Buffer, k: Buffer) => {
    const decipher = createDecipheriv('aes-256-gcm', k, data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(12, 28));
    return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
  };
  const store: FakeSafeStorage = {
    encryptCalls: 0,
    async isAsyncEncryptionAvailable() {
      return options.available ?? true;
    },
    async encryptStringAsync(plainText) {
      store.encryptCalls++;
      return encrypt(plainText, key);
    },
    async decryptStringAsync(encrypted) {
      try {
        return { result: decrypt(encrypted, key), shouldReEncrypt: false };
      } catch (error) {
        if (!previous) throw error;
        return { result: decrypt(encrypted, previous), shouldReEncrypt: true };
      }
    },
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    rotate() {
      previous = key;
      key = randomBytes(32);
    },
  };
  return store;
}
