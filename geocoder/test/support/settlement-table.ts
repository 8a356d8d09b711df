/**
 * Points with the settlement the real providers (Nominatim, Geoapify, HERE)
 * give for them, to hold LOCAL's answer against. Where a recorded payload
 * exists (shared/testing/fixtures/providers) the row says which; the others
 * are composed from the providers' documented behaviour: Nominatim's
 * city/town/village is the municipality the point is in, Geoapify's and
 * HERE's `city` likewise. Where the providers name the same place
 * differently (language, "City of ..."), every name they use is accepted.
 *
 * Kinds of point, as the LOCAL issue asked: big cities (and their outer
 * boroughs), towns next to bigger towns, points near region and country
 * borders, islands. Names are compared without case or diacritics.
 */
export interface SettlementCase {
  what: string;
  latitude: number;
  longitude: number;
  countryCode: string;
  settlements: string[];
}

const row = (what: string, latitude: number, longitude: number, countryCode: string, ...settlements: string[]): SettlementCase => ({
  what,
  latitude,
  longitude,
  countryCode,
  settlements,
});

export const settlementTable: SettlementCase[] = [
  // United States: New York's boroughs, and the towns across the Hudson (another state).
  row("New York: Penn Plaza, Manhattan", 40.7506, -73.9935, "US", "New York", "New York City"),
  row("New York: the Met, Manhattan", 40.7794, -73.9632, "US", "New York", "New York City"),
  row("New York: Empire State Building (HERE fixture here-08)", 40.74844, -73.98566, "US", "New York", "New York City"),
  row("New York: Park Slope, Brooklyn", 40.672, -73.9778, "US", "New York", "New York City"),
  row("New York: Flushing, Queens", 40.759, -73.83, "US", "New York", "New York City"),
  row("Weehawken, New Jersey, across the Hudson from Midtown", 40.7685, -74.026, "US", "Weehawken"),
  row("Hoboken, New Jersey", 40.744, -74.0324, "US", "Hoboken"),
  row("Jersey City: Journal Square", 40.7282, -74.0776, "US", "Jersey City"),
  row("Chicago: the Loop", 41.8819, -87.6278, "US", "Chicago"),
  row("Evanston, next to Chicago", 42.045, -87.6877, "US", "Evanston"),
  row("Los Angeles: downtown", 34.0522, -118.2437, "US", "Los Angeles"),
  row("Santa Monica, next to Los Angeles", 34.0195, -118.4912, "US", "Santa Monica"),
  row("Washington: the White House", 38.8977, -77.0365, "US", "Washington"),
  row("Kansas City, Missouri", 39.0997, -94.5786, "US", "Kansas City"),
  row("Kansas City, Kansas, across the state line", 39.1155, -94.6268, "US", "Kansas City"),
  row("Nashville (Geoapify fixture 09)", 36.1627, -86.7816, "US", "Nashville"),
  row("El Paso, on the Mexican border", 31.7587, -106.4869, "US", "El Paso"),
  row("Honolulu, Oʻahu", 21.3069, -157.8583, "US", "Honolulu"),
  // Mexico and Canada.
  row("Ciudad Juárez, across the border from El Paso", 31.6904, -106.4245, "MX", "Ciudad Juárez", "Juárez"),
  row("Mexico City: the Zócalo", 19.4326, -99.1332, "MX", "Mexico City", "Ciudad de México"),
  row("Toronto: city hall", 43.6532, -79.3832, "CA", "Toronto"),
  row("Mississauga, next to Toronto", 43.589, -79.6441, "CA", "Mississauga"),
  row("Ottawa: Parliament Hill", 45.4236, -75.7009, "CA", "Ottawa"),
  row("Gatineau (Hull), across the river in Quebec", 45.444, -75.739, "CA", "Gatineau"),
  row("Montreal: downtown", 45.5017, -73.5673, "CA", "Montréal", "Montreal"),
  // United Kingdom and Ireland.
  row("London: Westminster", 51.5007, -0.1246, "GB", "London", "City of Westminster"),
  row("London: Camden Town", 51.539, -0.1426, "GB", "London"),
  row("Manchester: city centre", 53.4794, -2.2453, "GB", "Manchester"),
  row("Salford, next to Manchester", 53.4875, -2.2901, "GB", "Salford"),
  row("Edinburgh", 55.9533, -3.1883, "GB", "Edinburgh", "City of Edinburgh"),
  row("Cardiff", 51.4816, -3.1791, "GB", "Cardiff"),
  row("Keswick (Nominatim fixture 09)", 54.6013, -3.1347, "GB", "Keswick"),
  row("Dublin", 53.3498, -6.2603, "IE", "Dublin"),
  // France.
  row("Paris: rue Quincampoix (Nominatim fixture 01)", 48.861, 2.351, "FR", "Paris"),
  row("Paris: Porte de Saint-Cloud, at the edge by Boulogne", 48.838, 2.257, "FR", "Paris"),
  row("Boulogne-Billancourt, next to Paris", 48.8352, 2.241, "FR", "Boulogne-Billancourt"),
  row("Saint-Denis: Stade de France", 48.9245, 2.3602, "FR", "Saint-Denis"),
  row("Lyon: place Bellecour", 45.7578, 4.832, "FR", "Lyon"),
  row("Villeurbanne, next to Lyon", 45.7719, 4.8902, "FR", "Villeurbanne"),
  row("Marseille: Vieux-Port", 43.2951, 5.3744, "FR", "Marseille"),
  row("Strasbourg: the cathedral", 48.5818, 7.7509, "FR", "Strasbourg"),
  row("Gordes (Nominatim fixture 05)", 43.9116, 5.2003, "FR", "Gordes"),
  row("Ajaccio, Corsica", 41.9192, 8.7386, "FR", "Ajaccio"),
  // Germany and its borders.
  row("Kehl, across the Rhine from Strasbourg", 48.574, 7.816, "DE", "Kehl"),
  row("Berlin: Brandenburger Tor (HERE fixture 04)", 52.5163, 13.3777, "DE", "Berlin"),
  row("Berlin: Kastanienallee, Prenzlauer Berg (Nominatim fixture 02)", 52.5385, 13.4091, "DE", "Berlin"),
  row("Berlin: Kreuzberg", 52.499, 13.403, "DE", "Berlin"),
  row("Potsdam, next to Berlin in Brandenburg", 52.3906, 13.0645, "DE", "Potsdam"),
  row("Munich: Marienplatz", 48.1374, 11.5755, "DE", "Munich", "München"),
  row("Frankfurt: the Römer", 50.1106, 8.682, "DE", "Frankfurt am Main", "Frankfurt"),
  row("Offenbach, next to Frankfurt", 50.1055, 8.7623, "DE", "Offenbach am Main", "Offenbach"),
  row("Cologne: the cathedral (Nominatim fixture 08)", 50.9413, 6.9583, "DE", "Cologne", "Köln"),
  row("Görlitz, on the Polish border", 51.155, 14.987, "DE", "Görlitz"),
  row("Zgorzelec, across the Neisse from Görlitz", 51.15, 15.01, "PL", "Zgorzelec"),
  row("Warsaw", 52.2297, 21.0122, "PL", "Warsaw", "Warszawa"),
  // Benelux, the Alps.
  row("Groenlo, next to the village of Beltrum", 52.042, 6.616, "NL", "Groenlo"),
  row("Amsterdam: Dam", 52.3731, 4.8926, "NL", "Amsterdam"),
  row("Amstelveen, next to Amsterdam", 52.303, 4.859, "NL", "Amstelveen"),
  row("Brussels: Grand-Place", 50.8467, 4.3525, "BE", "Brussels", "Bruxelles", "Brussel", "City of Brussels"),
  row("Basel: Marktplatz", 47.558, 7.588, "CH", "Basel"),
  row("Zürich", 47.3769, 8.5417, "CH", "Zürich", "Zurich"),
  row("Vienna (HERE fixture 01)", 48.2082, 16.3738, "AT", "Vienna", "Wien"),
  row("Hallstatt (HERE fixture 06)", 47.5622, 13.6493, "AT", "Hallstatt"),
  // Southern Europe and islands.
  row("Rome", 41.9028, 12.4964, "IT", "Rome", "Roma"),
  row("Milan: the Duomo", 45.4642, 9.19, "IT", "Milan", "Milano"),
  row("Sesto San Giovanni, next to Milan", 45.535, 9.23, "IT", "Sesto San Giovanni"),
  row("Madrid: Puerta del Sol", 40.4169, -3.7035, "ES", "Madrid"),
  row("Barcelona (HERE fixture 05)", 41.3874, 2.1686, "ES", "Barcelona"),
  row("L'Hospitalet de Llobregat, next to Barcelona", 41.3596, 2.1, "ES", "L'Hospitalet de Llobregat"),
  row("Palma, Mallorca", 39.5696, 2.6502, "ES", "Palma", "Palma de Mallorca"),
  row("Lisbon: Baixa", 38.7107, -9.1365, "PT", "Lisbon", "Lisboa"),
  row("Funchal, Madeira", 32.65, -16.908, "PT", "Funchal"),
  row("Valletta, Malta", 35.8989, 14.5146, "MT", "Valletta"),
  // Northern and Eastern Europe.
  row("Copenhagen: Rådhuspladsen", 55.6761, 12.5683, "DK", "Copenhagen", "København"),
  row("Frederiksberg, inside Copenhagen", 55.6786, 12.5335, "DK", "Frederiksberg"),
  row("Stockholm", 59.3293, 18.0686, "SE", "Stockholm"),
  row("Oslo", 59.9139, 10.7522, "NO", "Oslo"),
  row("Reykjavík, Iceland", 64.1466, -21.9426, "IS", "Reykjavík"),
  row("Prague: Old Town Square", 50.0875, 14.4213, "CZ", "Prague", "Praha"),
  row("Moscow: Red Square", 55.7539, 37.6208, "RU", "Moscow"),
  row("Istanbul: Sultanahmet", 41.0054, 28.9768, "TR", "Istanbul"),
  // Asia and Oceania.
  row("Tokyo: Marunouchi (Nominatim fixture 11: the ward Chiyoda)", 35.6812, 139.764, "JP", "Chiyoda"),
  row("Osaka", 34.6937, 135.5023, "JP", "Osaka"),
  row("Seoul: city hall", 37.5663, 126.9779, "KR", "Seoul"),
  row("Shanghai: People's Square", 31.2304, 121.4737, "CN", "Shanghai"),
  row("Singapore: Marina Bay Sands (Geoapify fixture 05)", 1.2834, 103.8607, "SG", "Singapore"),
  row("Mumbai: Chhatrapati Shivaji Terminus", 18.9398, 72.8355, "IN", "Mumbai"),
  row("Sydney: the Opera House", -33.8568, 151.2153, "AU", "Sydney"),
  row("Melbourne", -37.8136, 144.9631, "AU", "Melbourne"),
  row("Auckland", -36.8485, 174.7633, "NZ", "Auckland"),
  // South America and Africa.
  row("Buenos Aires: Plaza de Mayo", -34.6083, -58.3712, "AR", "Buenos Aires"),
  row("Avellaneda, across the Riachuelo from Buenos Aires", -34.6625, -58.365, "AR", "Avellaneda"),
  row("São Paulo: Sé", -23.5505, -46.634, "BR", "São Paulo"),
  row("Rio de Janeiro: Copacabana", -22.9711, -43.1822, "BR", "Rio de Janeiro"),
  row("Niterói, across the bay from Rio", -22.894, -43.124, "BR", "Niterói"),
  row("Cairo: Tahrir Square", 30.0444, 31.2357, "EG", "Cairo"),
  row("Nairobi", -1.2864, 36.8172, "KE", "Nairobi"),
  row("Cape Town", -33.9249, 18.4241, "ZA", "Cape Town"),
];

/** Lower case, no diacritics, one kind of apostrophe: "Zürich" and "zurich" are one name. */
export function comparableName(name: string): string {
  return name.normalize("NFD").replace(/\p{M}/gu, "").replace(/[’']/g, "'").toLowerCase();
}

export function agrees(settlement: string | null, expected: SettlementCase): boolean {
  return settlement !== null && expected.settlements.some((name) => comparableName(name) === comparableName(settlement));
}
