/**
 * The company (dataset) a call is for (design §3). Kept out of the zod schema modules: the site's
 * first load reads it and must not pull zod in with it (docs/decisions/085-first-load-under-170-kb.md "First load under 170 KB").
 */
export const datasetIdHeader = 'dataset-id';
