export function App() {
  return <main className="p-6"><h1 className="text-xl font-semibold">SPOC Studio</h1></main>;
}
