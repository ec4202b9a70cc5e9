/**
 * Query parameters that only track a click or a campaign and never select content. Matched
 * case-insensitively. Keep this list conservative: dropping a parameter that does select content
 * would merge two different pages. Sources: ClearURLs rules, Firefox query stripping, publisher audits.
 */

/** Exact parameter names (lower case). */
const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  // Ad and social click ids
  "fbclid",
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "msclkid",
  "yclid",
  "twclid",
  "ttclid",
  "igshid",
  "igsh",
  "li_fat_id",
  "epik",
  "rdt_cid",
  "sccid",
  "srsltid",
  "mkt_tok",
  "_ga",
  "_gl",
  "_hsenc",
  "_hsmi",
  "__hstc",
  "__hssc",
  "__hsfp",
  "hsctatracking",
  "oly_anon_id",
  "oly_enc_id",
  "rb_clickid",
  "vero_id",
  "vero_conv",
  "wickedid",
  "s_cid",
  "s_kwcid",
  "sc_cid",
  "ef_id",
  "spm",
  "scm",
  // Referral and campaign tags used by news sites
  "ref",
  "ref_src",
  "ref_url",
  "referer",
  "referrer",
  "cmpid",
  "cmp",
  "icid",
  "intcmp",
  "int_cmp",
  "ocid",
  "ncid",
  "smid",
  "smtyp",
  "xtor",
  "ito",
  "ftag",
  "share",
  "sr_share",
  "soc_src",
  "soc_trk",
  "traffic_source",
  "trk",
  "trkcampaign",
  "guccounter",
  "guce_referrer",
  "guce_referrer_sig",
  "fb_action_ids",
  "fb_action_types",
  "fb_ref",
  "fb_source",
  "action_object_map",
  "action_type_map",
  "action_ref_map",
  "__twitter_impression",
  "at_medium",
  "at_campaign",
  "at_ptr_name",
  "at_link_id",
  "at_link_origin",
  "at_link_type",
  "at_format",
  "at_bbc_team",
  "cid_source",
  "mbid",
  "mc_cid",
  "mc_eid",
]);

/** Parameter name prefixes (lower case): whole families of tracking tags. */
const TRACKING_PARAM_PREFIXES: readonly string[] = [
  "utm_", // Google Analytics campaign tags
  "mc_", // Mailchimp
  "ns_", // comScore (BBC and others)
  "pk_", // Matomo / Piwik campaign
  "mtm_", // Matomo
  "piwik_",
  "hsa_", // HubSpot ads
  "at_custom", // AT Internet
  "wt.", // Webtrends (WT.mc_id)
  "_branch_",
];

export function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase();
  if (TRACKING_PARAMS.has(n)) return true;
  return TRACKING_PARAM_PREFIXES.some((p) => n.startsWith(p));
}
