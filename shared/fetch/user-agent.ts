/** The crawler's User-Agent: a product token robots.txt groups can name, a version, and a contact URL. */

const CRAWLER_TOKEN = "storytrail";
const CRAWLER_VERSION = "0.1";
/** Where site owners learn what the crawler does; a deployment names its own operator (STORYTRAIL_USER_AGENT). */
const DEFAULT_CONTACT_URL = "https://github.com/storytrail/storytrail";

export interface UserAgentOptions {
  contactUrl: string;
  token?: string;
  version?: string;
  /** Free text after the contact URL, e.g. the operator's name. */
  comment?: string;
}

/** `storytrail/0.1 (+https://…; news research crawler)`. Throws if the contact is not an http(s) or mailto URL. */
export function buildUserAgent(opts: UserAgentOptions): string {
  const token = opts.token ?? CRAWLER_TOKEN;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(token)) throw new Error(`invalid user-agent token ${token}`);
  let contact: URL;
  try {
    contact = new URL(opts.contactUrl);
  } catch {
    throw new Error(`user-agent contact must be a URL, got ${JSON.stringify(opts.contactUrl)}`);
  }
  if (!["http:", "https:", "mailto:"].includes(contact.protocol)) {
    throw new Error(`user-agent contact must be http(s) or mailto, got ${contact.protocol}`);
  }
  const comment = (opts.comment ?? "news research crawler").replace(/[()\s]+/g, " ").trim();
  return `${token}/${opts.version ?? CRAWLER_VERSION} (+${contact.href}${comment ? `; ${comment}` : ""})`;
}

/** The User-Agent of a deployment that sets none (crawl-settings' default; synth warns about it). */
export const DEFAULT_USER_AGENT = buildUserAgent({ contactUrl: DEFAULT_CONTACT_URL });

/** The product token robots.txt user-agent lines are matched against (`storytrail` in `storytrail/0.1 (…)`). */
export function robotsToken(userAgent: string): string {
  return (userAgent.trim().split(/[/\s]/)[0] ?? "").toLowerCase() || "*";
}
