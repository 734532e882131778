// Vectra's default storage rewrites index.json in place, so a crash mid-write leaves a truncated file.
// This storage gives every write the tmp + fsync + rename treatment; Vectra itself is unchanged.
import * as fs from 'fs';
import * as path from 'path';
import { FileStorageUtilities, type FileDetails, type FileStorage, type ListFilesFilter } from './vectraLite';
import { writeFileAtomic } from './atomicFile';
import { DIR_MODE } from './privateFiles';

export class AtomicFileStorage implements FileStorage {
  async createFile(filePath: string, content: Buffer | string): Promise<void> {
    if (await this.pathExists(filePath)) {
      throw Object.assign(new Error(`File already exists: ${filePath}`), { code: 'EEXIST' });
    }
    await writeFileAtomic(filePath, content);
  }

  async createFolder(folderPath: string): Promise<void> {
    await fs.promises.mkdir(folderPath, { recursive: true, mode: DIR_MODE });
  }

  async deleteFile(filePath: string): Promise<void> {
    await fs.promises.rm(filePath, { force: true });
  }

  async deleteFolder(folderPath: string): Promise<void> {
    await fs.promises.rm(folderPath, { recursive: true, force: true });
  }

  async getDetails(fileOrFolderPath: string): Promise<FileDetails> {
    const st = await fs.promises.stat(fileOrFolderPath);
    return {
      name: path.basename(fileOrFolderPath),
      path: fileOrFolderPath,
      isFolder: st.isDirectory(),
      fileType: st.isFile() ? FileStorageUtilities.getFileType(fileOrFolderPath) : undefined,
    };
  }

  async listFiles(folderPath: string, filter: ListFilesFilter = 'all'): Promise<FileDetails[]> {
    const entries = await fs.promises.readdir(folderPath, { withFileTypes: true });
    return entries
      .filter(e => filter === 'all' || (filter === 'folders') === e.isDirectory())
      .map(e => ({
        name: e.name,
        path: path.join(folderPath, e.name),
        isFolder: e.isDirectory(),
        fileType: e.isFile() ? FileStorageUtilities.getFileType(e.name) : undefined,
      }));
  }

  async pathExists(fileOrFolderPath: string): Promise<boolean> {
    try {
      await fs.promises.access(fileOrFolderPath);
      return true;
    } catch {
      return false;
    }
  }

  async readFile(filePath: string): Promise<Buffer> {
    return fs.promises.readFile(filePath);
  }

  async upsertFile(filePath: string, content: Buffer | string): Promise<void> {
    await writeFileAtomic(filePath, content);
  }
}
