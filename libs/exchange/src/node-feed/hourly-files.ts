import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** One hourly file of an hl-node stream: `<stream>/hourly/<date>/<hour>`. */
export interface HourlyFile {
  /** UTC date as written, `YYYYMMDD`. */
  date: string;
  hour: number;
  /** The path relative to `<stream>/hourly`, as stored in checkpoints: `20260628/8`. */
  name: string;
}

const DATE = /^\d{8}$/;
// hl-node writes the hour without a leading zero; a padded one is read the same rather than ignored.
const HOUR = /^\d{1,2}$/;

/** The hourly file a relative name denotes, or null if the name is not one hl-node writes. */
export function parseHourlyName(name: string): HourlyFile | null {
  const [date, hour, ...rest] = name.split('/');
  if (rest.length > 0 || date === undefined || hour === undefined || !DATE.test(date) || !HOUR.test(hour)) return null;
  const h = Number(hour);
  return h < 24 ? { date, hour: h, name: `${date}/${hour}` } : null;
}

/** Date first, then the hour as a number: a plain string sort would put hour 10 before 9. */
export function compareHourlyFiles(a: HourlyFile, b: HourlyFile): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  return a.hour - b.hour;
}

/**
 * The hourly files of one stream directory in write order. `fromDate` skips older date directories so a
 * poll does not list the whole history. A missing directory is an empty list: a node started without
 * that stream's `--write-*` flag never creates it.
 */
export async function listHourlyFiles(streamDir: string, fromDate?: string): Promise<HourlyFile[]> {
  const hourlyDir = join(streamDir, 'hourly');
  const dates = (await readdirOrEmpty(hourlyDir))
    .filter((entry) => entry.isDirectory() && DATE.test(entry.name) && (fromDate === undefined || entry.name >= fromDate))
    .map((entry) => entry.name);
  const files: HourlyFile[] = [];
  for (const date of dates) {
    for (const entry of await readdirOrEmpty(join(hourlyDir, date))) {
      const file = entry.isFile() ? parseHourlyName(`${date}/${entry.name}`) : null;
      if (file !== null) files.push(file);
    }
  }
  return files.sort(compareHourlyFiles);
}

async function readdirOrEmpty(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    // Also covers a date directory pruned by the node between the two listings.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
