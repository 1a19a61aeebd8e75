// Stands in for react-devtools-core, which ink loads only when DEV=true; keeps the bundle self-contained.
export default {};
export function connectToDevTools() {}
