// pastel calls readPackageUp() on every run only to default the name, version and description,
// which workbench passes itself; the real module (and its license parsers) costs ~40 ms at start.
export async function readPackageUp() {
  return undefined;
}
export function readPackageUpSync() {
  return undefined;
}
