// Placeholder until the handler lands.
export const handler = async (): Promise<void> => {};
