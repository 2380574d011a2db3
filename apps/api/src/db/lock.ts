import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataFolderInUseError extends Error {
  constructor(folder: string, pid: number) {
    super(
      `The data folder ${folder} is in use by another Ledgerline process (pid ${pid}). ` +
        'Stop that process first, or start this one with another DATA_DIR.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is one process's database: a second process opening the same folder corrupts it
 * (design §6). The lock file holds the owner's pid; a lock left by a killed process is taken over.
 */
export function lockDataFolder(folder: string): { release(): void } {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'ledgerline.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataFolderInUseError(folder, pid);
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock the data folder ${folder}.`);
}
