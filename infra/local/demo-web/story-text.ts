/**
 * Made-up news stories for the demo web: templated sentences filled from word lists with a seeded
 * PRNG. Every story draws its own place, people, organisation and figures, so two stories never share
 * the facts the clusterer checks (numbers and names in shared contexts), while an outlet's edited copy
 * of a wire story keeps them.
 */
import type { Prng } from "./prng";

export interface StoryText {
  readonly headline: string;
  readonly section: string;
  readonly paragraphs: readonly string[];
  /** A short dek for feeds. */
  readonly summary: string;
}

const CITIES = [
  "Norhaven",
  "Eastmere",
  "Caldport",
  "Wrenfield",
  "Ashbury",
  "Dunmore",
  "Kelverton",
  "Marrowick",
  "Palington",
  "Queensford",
  "Rothley",
  "Silverbrook",
  "Tarnholm",
  "Upton Vale",
  "Westerly",
  "Yarrowby",
];
const FIRST = [
  "Amara",
  "Bastian",
  "Celia",
  "Dorian",
  "Elif",
  "Farid",
  "Greta",
  "Hugo",
  "Ines",
  "Jonas",
  "Kaia",
  "Lorcan",
  "Mirela",
  "Nikhil",
  "Odile",
  "Pavel",
];
const LAST = [
  "Achterberg",
  "Brannigan",
  "Castellano",
  "Dimitrov",
  "Engstrom",
  "Fairweather",
  "Galloway",
  "Hollis",
  "Ivanova",
  "Jaramillo",
  "Kowalczyk",
  "Lindqvist",
  "Moreau",
  "Nakamura",
  "Okafor",
  "Petrakis",
];
const ROLES = [
  "the mayor",
  "the transport minister",
  "the council leader",
  "the union's chair",
  "the company's chief executive",
  "the head of the regional authority",
  "a senior economist",
  "the health commissioner",
];
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

interface Topic {
  readonly section: string;
  readonly orgs: readonly string[];
  readonly things: readonly string[];
  readonly headlines: readonly string[];
  readonly effects: readonly string[];
}

const TOPICS: readonly Topic[] = [
  {
    section: "Business",
    orgs: ["Brightline Freight", "Orrin Batteries", "Halvard Foods", "Keystone Mutual", "Pellam Steelworks"],
    things: [
      "a new assembly plant",
      "a merger with a smaller rival",
      "a round of job cuts",
      "a four-day working week",
      "an export deal",
    ],
    headlines: [
      "{org} unveils {thing} in {city}",
      "{org} bets on {thing} as sales slow",
      "Shares in {org} jump after plan for {thing}",
      "{org} to hire {jobs} for {thing}",
      "{org} shares rise {pct} percent on {thing}",
    ],
    effects: ["lift quarterly profit", "cut operating costs", "raise output", "reduce debt"],
  },
  {
    section: "City",
    orgs: [
      "the city council",
      "the regional transit board",
      "the housing trust",
      "the parks department",
      "the water authority",
    ],
    things: [
      "a tram line to the harbour",
      "a ban on cars in the old town",
      "a flood barrier on the river",
      "free bus travel for students",
      "a new central library",
    ],
    headlines: [
      "{city} approves {thing}",
      "{city} residents split over {thing}",
      "Work to start on {thing} in {city}",
      "{city} sets aside {money} million for {thing}",
      "{sample2} sign petition over {thing} in {city}",
    ],
    effects: ["cut commuting times", "lower emissions", "ease housing pressure", "reduce flood damage"],
  },
  {
    section: "Science",
    orgs: [
      "the Institute for Coastal Research",
      "the national space agency",
      "Ferren University",
      "the Glacier Observatory",
      "the seed bank consortium",
    ],
    things: [
      "a survey of deep-sea corals",
      "a satellite to map soil moisture",
      "a vaccine for a cattle virus",
      "a study of river plastics",
      "a drought-tolerant wheat strain",
    ],
    headlines: [
      "Researchers in {city} launch {thing}",
      "{org} reports early results from {thing}",
      "Scientists hail {thing} as a breakthrough",
      "{org} puts {money} million into {thing}",
      "Study of {sample} sites backs {thing}",
    ],
    effects: ["improve crop forecasts", "protect fragile reefs", "shorten outbreaks", "track pollution"],
  },
  {
    section: "Sport",
    orgs: [
      "the national football league",
      "the rowing federation",
      "the Olympic committee",
      "the cycling union",
      "the city marathon organisers",
    ],
    things: [
      "a bid to host the games",
      "a salary cap for clubs",
      "a new stadium by the river",
      "a women's professional league",
      "a ban on a training drug",
    ],
    headlines: [
      "{city} backs {thing}",
      "{org} votes for {thing}",
      "Fans react to {thing}",
      "{city} puts {money} million behind {thing}",
      "{org} backs {thing} by {members} votes",
    ],
    effects: ["fill stadiums", "level the competition", "bring in visitors", "protect young athletes"],
  },
  {
    section: "World",
    orgs: [
      "the regional trade bloc",
      "the coastal states' forum",
      "the river basin commission",
      "the refugee agency",
      "the fisheries council",
    ],
    things: [
      "a treaty on shared fishing grounds",
      "a ceasefire along the border",
      "an aid corridor to the islands",
      "a joint power grid",
      "new quotas for grain exports",
    ],
    headlines: [
      "Talks in {city} end with {thing}",
      "{org} agrees {thing}",
      "Leaders meet in {city} to discuss {thing}",
      "{org} signs {thing} after {months} months of talks",
      "{members} delegations in {city} back {thing}",
    ],
    effects: ["ease tensions", "stabilise prices", "speed up deliveries", "protect fish stocks"],
  },
];

const TEMPLATES = [
  "{org_cap} said on {day} that it had agreed to {thing_verb} {thing}, a step {person} called long overdue.",
  "The plan is expected to {effect} by {pct} percent within {years} years, according to figures published by {org}.",
  "{person}, {role}, told reporters in {city} that the decision followed {months} months of negotiations.",
  "Critics argued that the cost, estimated at {money} million, would fall hardest on households already struggling with rents.",
  "Supporters pointed to a survey of {sample} residents in which most said they favoured {thing}.",
  "Officials in {city} said the first phase would begin in the spring and employ about {jobs} people.",
  "{person2}, {role2}, warned that the timetable left little room for delays or for a harsh winter.",
  "A spokesperson for {org} declined to say whether further changes were planned before the end of the year.",
  "Opposition members in {city} demanded an independent review and a public hearing before any contracts are signed.",
  "The announcement came a week after a report found that {pct2} percent of similar projects ran over budget.",
  "Local businesses near the site said they welcomed the investment but feared months of disruption on the main road.",
  "Analysts noted that {org} had tried a comparable scheme in {year} and abandoned it after a change of leadership.",
  "{person} said the aim was to {effect} without raising taxes, and promised quarterly progress reports.",
  "In {city}, {sample2} people signed a petition within two days asking for the plan to be put to a vote.",
  "The {day} meeting lasted more than {hours} hours and ended with a show of hands among the {members} members present.",
  "Unions said they would study the details carefully and meet again on {day2} to agree a common position.",
];

const VERBS = ["begin work on", "fund", "press ahead with", "back", "commit to"];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? `{${k}}`);
}

/** One story's text: 5 paragraphs of 2–3 sentences (about 250 words), all of it from `rng`. */
export function generateStory(rng: Prng): StoryText {
  const topic = rng.pick(TOPICS);
  const [first1, first2] = rng.sample(FIRST, 2) as [string, string];
  const [last1, last2] = rng.sample(LAST, 2) as [string, string];
  const [role, role2] = rng.sample(ROLES, 2) as [string, string];
  const [day, day2] = rng.sample(DAYS, 2) as [string, string];
  const slots: Record<string, string> = {
    city: rng.pick(CITIES),
    org: rng.pick(topic.orgs),
    thing: rng.pick(topic.things),
    thing_verb: rng.pick(VERBS),
    effect: rng.pick(topic.effects),
    person: `${first1} ${last1}`,
    person2: `${first2} ${last2}`,
    role,
    role2,
    day,
    day2,
    pct: String(rng.int(4, 38)),
    pct2: String(rng.int(41, 77)),
    years: String(rng.int(2, 9)),
    months: String(rng.int(3, 18)),
    money: String(rng.int(12, 940)),
    sample: String(rng.int(1_100, 4_900)),
    sample2: String(rng.int(5_100, 19_000)),
    jobs: String(rng.int(120, 2_400)),
    year: String(rng.int(2004, 2019)),
    hours: String(rng.int(3, 11)),
    members: String(rng.int(21, 95)),
  };
  slots.org_cap = cap(slots.org!);
  const sentences = rng.sample(TEMPLATES, 12).map((t) => fill(t, slots));
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; ) {
    const n = rng.int(2, 3);
    paragraphs.push(sentences.slice(i, i + n).join(" "));
    i += n;
  }
  return {
    headline: cap(fill(rng.pick(topic.headlines), slots)),
    section: topic.section,
    paragraphs,
    summary: sentences[0]!,
  };
}

export interface Edit {
  readonly headline: string;
  readonly paragraphs: readonly string[];
}

/**
 * An outlet's copy of a wire story, edited the way syndicated copy is: a new headline, the last
 * paragraph cut, a credit line added, or a local lead-in. Facts (names, numbers) are kept.
 */
export function editForOutlet(story: StoryText, rng: Prng, outlet: string): Edit {
  const headlines = [
    story.headline,
    `UPDATE: ${story.headline}`,
    `${story.headline}, officials say`,
    `${story.section}: ${story.headline}`,
  ];
  let paragraphs = [...story.paragraphs];
  if (rng.next() < 0.4) paragraphs = paragraphs.slice(0, -1);
  if (rng.next() < 0.5)
    paragraphs.push(`Reporting by Continental Wire; additional reporting and editing by ${outlet} staff.`);
  if (rng.next() < 0.3)
    paragraphs.unshift(`${outlet} readers have followed this story closely since it broke earlier today.`);
  return { headline: rng.pick(headlines), paragraphs };
}

/**
 * A developing story's follow-up at a new URL, a day or two later: the wire's text again under a new
 * headline, after a new lead paragraph. Every sentence of the original is kept (its shingles are
 * contained in the follow-up), so dedup joins it to the original's story.
 */
export function followUp(story: StoryText, rng: Prng, nth: number): StoryText {
  const headline = nth === 1 ? `${story.headline}: the day after` : `${story.headline}: where things stand`;
  const lead = rng.pick([
    `Reactions continued to come in on ${rng.pick(DAYS)} after the announcement first reported by Continental Wire.`,
    `More details emerged on ${rng.pick(DAYS)}, ${nth} day${nth === 1 ? "" : "s"} after the plan was first made public.`,
  ]);
  return { ...story, headline, paragraphs: [lead, ...story.paragraphs] };
}
