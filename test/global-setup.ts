// Placeholder: the emulators are started here once the local runtime exists.
export default async function setup(): Promise<void> {}
