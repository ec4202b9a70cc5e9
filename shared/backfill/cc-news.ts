/** Where Common Crawl keeps CC-NEWS: declared once for the deploy settings, the CLI and its tests. */

/** Common Crawl's public bucket (us-east-1, AWS Open Data: free to read, not requester-pays). */
export const COMMONCRAWL_BUCKET = "commoncrawl";
export const CC_NEWS_PREFIX = "crawl-data/CC-NEWS/";
