// The package version, sent in the User-Agent. Kept as a constant (not read from package.json at run time) because
// the compiled file and the single-file bundle sit at different depths from package.json; a test checks they agree.
export const PACKAGE_VERSION = "0.1.0";
export const USER_AGENT = `vecdb-mcp/${PACKAGE_VERSION}`;
