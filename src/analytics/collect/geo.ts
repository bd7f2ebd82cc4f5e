import maxmind, { type CountryResponse } from 'maxmind'

/** Country of an IP address; undefined when unknown (private ranges, missing entries). */
export interface GeoLookup {
  country: (ip: string) => string | undefined
}

/** Opens a MaxMind (GeoLite2/GeoIP2 Country or City) database file as a GeoLookup. */
export async function openGeoIp (path: string): Promise<GeoLookup> {
  const reader = await maxmind.open<CountryResponse>(path)
  return {
    country (ip: string): string | undefined {
      if (!maxmind.validate(ip)) return undefined
      const found = reader.get(ip)
      // Anonymous proxies and satellite providers have a registered but no actual country.
      return found?.country?.iso_code ?? found?.registered_country?.iso_code
    }
  }
}
