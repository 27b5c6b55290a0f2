// Where an external training's page is. The resources id is caller-given (any text the store accepted): encoded
// as one path segment; the page decodes it once from its own path.
export const externalTrainingHref = (resourcesId: string) => `/training/external/${encodeURIComponent(resourcesId)}`;

/** The /training list's source filter (`?source=`): both kinds when absent. */
export const TRAINING_SOURCES = ["lightgate", "agent-lightning"] as const;
export type TrainingSource = (typeof TRAINING_SOURCES)[number];
export const isTrainingSource = (s: string | null): s is TrainingSource => (TRAINING_SOURCES as readonly (string | null)[]).includes(s);
